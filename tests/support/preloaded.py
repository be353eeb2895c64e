"""The service's processes (``python -m cli.main api``, ``worker``) forked from a process that has imported
the service already, rather than started anew.

A worker or an API started anew spends about 0.8 s of CPU importing the
service (SQLAlchemy, redis, RQ, gunicorn, Alembic for a new archive) before
it does anything, and the fault tests start dozens. ``start`` has them
forked instead by a fork server, ``python -m tests.support.preloaded``,
which imported all that once for the test process (``PRELOAD``: what the
API's gunicorn master and a worker import before they serve). The forked
process runs the module as ``python -m`` does (``runpy``), with the
environment, the working directory and the standard output and error it
is given, and leaves as such a process leaves (``SystemExit``, an uncaught
exception's traceback, ``atexit``): a process of its own, which a test
kills, stops or starts again as it would a new one. The API's gunicorn
worker still imports the Flask app itself, after gevent has patched it, as
in a process started anew.

A process under ``faketime`` is forked from a fork server started under it:
the library is loaded when a process starts (``LD_PRELOAD``), and a forked
process keeps it and its clock (``tests.support.stack``: a fork server of
its own for each stack whose clock is moved).
"""

import importlib
import json
import os
import queue
import runpy
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path

# What a process of a stack imports before it serves: the command line, the API's gunicorn master (gunicorn,
# its gevent worker class, the store, Alembic to upgrade a new archive) and a worker (RQ and the service's jobs)
PRELOAD = ("cli.main", "gunicorn.app.base", "gunicorn.arbiter", "service.server_refusals", "worker.runner",
           "alembic.command", "alembic.config")
CHECKOUT = Path(__file__).resolve().parents[2]


class Preloaded:
    """A process the fork server forked, with the part of ``subprocess.Popen``'s interface a stack uses."""

    def __init__(self, server: "ForkServer", pid: int):
        self._server = server
        self.pid = pid

    def poll(self) -> int | None:
        """Its exit status once it has ended (a signal's negative number), else None."""
        return self._server.ended.get(self.pid)

    def wait(self, timeout: float | None = None) -> int:
        return self._server.wait(self.pid, timeout)

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:  # never a process that has ended: its pid may be another's by now
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The test process's side of the fork server: requests written on its standard input, one JSON line each;
    its answers read from its standard output by a thread (``started PID``, then ``ended PID STATUS``).
    ``env``: the server's environment, where it is not the test process's (``faketime``'s)."""

    def __init__(self, env: dict[str, str] | None = None):
        self.process = subprocess.Popen([sys.executable, "-m", __name__], cwd=CHECKOUT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)
        self.ended: dict[int, int] = {}
        self._started: queue.Queue[int] = queue.Queue()
        self._ending = threading.Condition()
        self._asking = threading.Lock()
        threading.Thread(target=self._read, name="fork-server", daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            what, pid, *status = line.split()
            if what == b"started":
                self._started.put(int(pid))
                continue
            with self._ending:
                self.ended[int(pid)] = int(status[0])
                self._ending.notify_all()

    def start(self, module: str, args: list[str], env: dict[str, str], stdout: Path, stderr: Path) -> Preloaded:
        request = {"module": module, "args": args, "env": env, "cwd": os.getcwd(), "stdout": str(stdout),
                   "stderr": str(stderr)}
        with self._asking:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            return Preloaded(self, self._started.get(timeout=60))

    def wait(self, pid: int, timeout: float | None) -> int:
        with self._ending:
            if not self._ending.wait_for(lambda: pid in self.ended, timeout):
                raise subprocess.TimeoutExpired(f"process {pid}", timeout or 0)
            return self.ended[pid]

    def close(self) -> None:
        """The server ends once its requests do (its standard input closed); the processes it forked go on."""
        self.process.stdin.close()
        self.process.wait()


_server: ForkServer | None = None


def start(module: str, args: list[str], env: dict[str, str], stdout: Path, stderr: Path | None = None) -> Preloaded:
    """``python -m module args``, forked, with ``env`` as its whole environment, its standard output appended
    to ``stdout`` and its standard error to ``stderr`` (``stdout`` too, if None: a log, or a terminal's device).
    The test process's fork server starts with its first request."""
    global _server
    if _server is None or _server.process.poll() is not None:
        _server = ForkServer()
    return _server.start(module, args, env, stdout, stderr or stdout)


# the fork server's own side

def _answer(line: str) -> None:
    os.write(1, line.encode() + b"\n")


def _report_ended() -> None:
    """``ended PID STATUS`` for each process forked here that has ended (a signal's negative number)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _answer(f"ended {pid} {os.waitstatus_to_exitcode(status)}")


def serve() -> dict | None:
    """The fork server's loop: a process forked for each request read. Returns the request in the forked
    process, which is to run it; None in the server once the test process has gone (its requests' end)."""
    for module in PRELOAD:
        importlib.import_module(module)
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler of its own, so the wakeup pipe hears of each
    unread = b""
    while True:
        ready = select.select([0, woken], [], [])[0]
        if woken in ready:
            os.read(woken, 4096)
            _report_ended()
        if 0 not in ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return None
        *lines, unread = (unread + chunk).split(b"\n")
        for line in lines:
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.close(woken)
                os.close(wake)
                return json.loads(line)
            _answer(f"started {pid}")


def run(request: dict) -> None:
    """In a forked process: what ``python -m`` does with the request's module and arguments, in its own
    environment, working directory and streams (its standard input empty)."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    written = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOCTTY
    for path, fd, mode in ((os.devnull, 0, os.O_RDONLY), (request["stdout"], 1, written),
                           (request["stderr"], 2, written)):
        opened = os.open(path, mode)
        os.dup2(opened, fd)
        os.close(opened)
    sys.argv = [request["module"], *request["args"]]
    sys.modules.pop(request["module"], None)  # run as ``__main__`` alone, as in a new process (runpy warns of two)
    runpy.run_module(request["module"], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    forked = serve()
    if forked is not None:
        run(forked)
