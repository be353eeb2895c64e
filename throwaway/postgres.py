"""A throwaway PostgreSQL server on a free port, for the archive's tests and benchmarks.

Never the shared server on 5432: ``initdb`` makes a fresh cluster in a
temporary directory and ``pg_ctl`` starts it on a free port of 127.0.0.1
(trust authentication, fsync off: a test server). The binaries are the
ones on PATH, else Debian's (``/usr/lib/postgresql/<version>/bin``, from
the ``postgresql`` package, which ``.ci/run`` installs). PostgreSQL refuses
to run as root, so under root the server runs as the ``postgres`` user.

``initdb`` costs most of a second of CPU, a copy of the cluster it makes a tenth: the processes of
one test session make it once (``cluster_template``) and each server starts on a copy of it.
"""

import fcntl
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


def cluster_template(directory: Path) -> Path:
    """A cluster ``initdb`` made, kept in ``directory`` for the servers of every process given the same
    one (pytest-xdist's workers of a session: the first makes it under a lock while the others wait). It is
    never started itself: each server copies it (``PostgresServer(template=...)``)."""
    template = directory / "postgres-cluster"
    with (directory / "postgres-cluster.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            maker = PostgresServer()
            partial = directory / "postgres-cluster.partial"  # a copy cut short is never taken for the cluster
            try:
                maker.initdb()
                shutil.rmtree(partial, ignore_errors=True)
                shutil.move(maker.data, partial)
                partial.rename(template)
            finally:
                shutil.rmtree(maker.root, ignore_errors=True)
    return template


class PostgresServer:
    def __init__(self, template: Path | None = None):
        """``template``: a cluster to copy (``cluster_template``) rather than make with ``initdb``."""
        self.template = template
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

    def initdb(self) -> None:
        """A new cluster in ``data``: the user ``scoundrel``, trusted."""
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "scoundrel", "-E", "UTF8", "--no-sync")

    def start(self) -> "PostgresServer":
        if self.template is None:
            self.initdb()
        else:  # as root, ``-a`` keeps the files the server's user's
            subprocess.run(["cp", "-a", str(self.template), str(self.data)], check=True, timeout=120)
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
