"""The Lua scripts of the store, one ``<name>.lua`` file a script, shipped as package data.

A script may begin with ``--#include <fragment>`` lines: each names a shared
fragment (``_<fragment>.lua``, local functions several scripts use) that the
loader puts in its place, once per script however often it is named, and
fragments may include fragments. So a fragment is one file, written once.

``LuaScript`` runs a loaded script: by SHA (EVALSHA, loading it again after a
Redis restart), or in a pipeline by its text (EVAL; see ``run``), but in a
pipeline that asks for SHAs (``by_sha``), whose runner sends again, by text,
each call answered NOSCRIPT (``store.base.replicas``). The Python wrapper of
each script is in its subject's ``scripts`` module (``store.runs.scripts``…):
it names the script's KEYS and ARGV, so the positional contract of each
script (documented at its top) is spelt there alone, next to the key names
it uses; its ``client`` is a Redis client, or a pipeline to queue the call
in (its reply then comes from ``execute``).
"""

import hashlib
import re
from importlib import resources
from typing import Any

from redis.client import Pipeline
from redis.exceptions import NoScriptError

__all__ = ["BY_SHA", "LuaScript", "flatten", "source"]

_INCLUDE = re.compile(r"^--#include (\w+)$", re.MULTILINE)


def _text(name: str) -> str:
    return resources.files(__package__).joinpath(f"{name}.lua").read_text(encoding="utf-8")


def source(name: str, included: set[str] | None = None) -> str:
    """The text of script ``name`` with its ``--#include`` lines replaced by their fragments."""
    included = set() if included is None else included

    def expand(match: re.Match) -> str:
        fragment = match.group(1)
        if fragment in included:
            return ""
        included.add(fragment)
        return source(fragment, included)

    return _INCLUDE.sub(expand, _text(name))


BY_SHA = "scripts_by_sha"  # a pipeline's attribute: its scripts go by SHA (``LuaScript.run``)


class LuaScript:
    """One script, loaded once per process; ``run`` it on a client or in a pipeline."""

    def __init__(self, name: str):
        self.name = name
        self.source = source(name)
        self.sha = hashlib.sha1(self.source.encode("utf-8")).hexdigest()

    def run(self, client: Any, keys: list[str], args: list) -> Any:
        """The script's reply (in a pipeline: queued, answered by ``execute``).

        EVAL, not EVALSHA, inside a pipeline: a Redis restarted since the
        script was loaded would answer NOSCRIPT for part of a transaction.
        Redis still caches the compiled script, but hashes the text of each
        EVAL first (tens of microseconds for the longest): a pipeline marked
        ``by_sha`` gets EVALSHA, and its runner answers a NOSCRIPT.
        """
        if isinstance(client, Pipeline):
            if getattr(client, BY_SHA, False):
                return client.evalsha(self.sha, len(keys), *keys, *args)
            return client.eval(self.source, len(keys), *keys, *args)
        try:
            return client.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            return client.eval(self.source, len(keys), *keys, *args)


def flatten(mapping: dict) -> list[str]:
    """A mapping as the alternating name/value ARGV the scripts read (HSET's order)."""
    return [str(item) for pair in mapping.items() for item in pair]
