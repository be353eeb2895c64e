"""A throwaway PostgreSQL server on a free port, for the archive's tests and benchmarks.

Never the shared server on 5432: ``initdb`` makes a fresh cluster in a
temporary directory and ``pg_ctl`` starts it on a free port of 127.0.0.1
(trust authentication, fsync off: a test server). The binaries are the
ones on PATH, else Debian's (``/usr/lib/postgresql/<version>/bin``, from
the ``postgresql`` package, which ``.ci/run`` installs). PostgreSQL refuses
to run as root, so under root the server runs as the ``postgres`` user.
"""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from cli.redis_server import free_port


def postgres_bin_dir() -> str | None:
    """Where ``initdb`` and ``pg_ctl`` are, or None without PostgreSQL."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(found)
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(debian[-1]) if debian else None


class PostgresServer:
    def __init__(self):
        self.bin_dir = postgres_bin_dir()
        if self.bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)")
        self.root = Path(tempfile.mkdtemp(prefix="scoundrel-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://scoundrel@127.0.0.1:{self.port}/archive"

    def _run(self, *args: str) -> None:
        demote = None
        if self.user is not None:
            uid, gid = self.user.pw_uid, self.user.pw_gid

            def demote() -> None:
                os.setgid(gid)
                os.setuid(uid)
        subprocess.run([os.path.join(self.bin_dir, args[0]), *args[1:]], check=True, preexec_fn=demote,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root, timeout=120)

    def start(self) -> "PostgresServer":
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "scoundrel", "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -h 127.0.0.1 -k {self.root} -F"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "postgres.log"), "-o", options, "-w", "start")
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=scoundrel dbname=postgres",
                             autocommit=True) as connection:
            connection.execute("CREATE DATABASE archive")
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
