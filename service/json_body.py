"""Request bodies read as JSON: RFC 8259 JSON in I-JSON's interoperable subset (RFC 7493).

Python's ``json`` module reads more than JSON, and fails on some of it with
errors that are not ``JSONDecodeError``; each of these is refused here as a
body that is not valid JSON (a 400), never read into a value the rest of the
service would trip on:

- ``NaN``, ``Infinity`` and ``-Infinity``: not JSON at all;
- a number past a double's range (``1e999``, which Python reads as infinity);
- an integer of more digits than Python converts (``ValueError``);
- nesting deeper than the parser's recursion goes (``RecursionError``);
- a name twice in one object (the last would silently win, where another
  parser, a proxy's say, takes the first);
- an escaped lone surrogate (``"\\ud800"``): a string no Redis client can encode.
"""

import json
import math
import re
import sys

# An escape of a surrogate code point: only then can a parsed string hold a lone one
# (a body that is valid UTF-8 cannot carry one unescaped).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


# Python's own default limit of int-str conversion (a 4,301-digit integer is a ValueError),
# whatever this process's PYTHONINTMAXSTRDIGITS says: 0 there would let a body of digits cost
# seconds to convert.
MAX_DIGITS = sys.int_info.default_max_str_digits


class UnreadableJson(ValueError):
    """A body that is not JSON the service reads, with the reason in words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _refuse_constant(name: str):
    raise UnreadableJson(f"{name} is not a JSON value")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise UnreadableJson(f"an integer has more than {MAX_DIGITS} digits")
    return int(digits)


def _number(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise UnreadableJson("a number is beyond the range of a double")
    return number


def _object(pairs: list[tuple[str, object]]) -> dict:
    members = dict(pairs)
    if len(members) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise UnreadableJson(f"the name {name!r} appears twice in one object")
            seen.add(name)
    return members


_DECODER = json.JSONDecoder(parse_int=_integer, parse_float=_number, parse_constant=_refuse_constant,
                            object_pairs_hook=_object)


def _strings(value: object):
    """Every string in a parsed document, names included (iteratively: it may be deep)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())


def read_json(body: bytes) -> object:
    """The JSON document ``body`` holds; ``UnreadableJson`` for anything else, reason included."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableJson(f"the body is not UTF-8 (byte {error.start})") from None
    try:
        document = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise UnreadableJson(str(error)) from None
    except RecursionError:
        raise UnreadableJson("nested too deeply") from None
    if _SURROGATE_ESCAPE.search(body) and any(_LONE_SURROGATE.search(string) for string in _strings(document)):
        raise UnreadableJson("a string holds a lone surrogate (an escape such as \\ud800 without its pair)")
    return document
