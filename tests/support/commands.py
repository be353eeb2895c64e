"""``scoundrel`` commands run in the test process, for tests whose subject is what a command does to
the store rather than the command as a process.

A command started as a process of its own costs most of a second of CPU,
nearly all of it importing the service; the suite runs a few hundred. Run
here, it is the same code from its argument parsing to its output and its
exit status (``cli.main.main``), with the environment a process of the
stack's would have. The commands as processes (a terminal's output, a
signal, an error as one line) are ``tests/cli``'s to test.
"""

import io
import logging
import os
import select
import signal
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

from cli.main import main
from throwaway.forked import fork


class ForkedTimeout(Exception):
    """A forked process ran past its time: killed, with what it had printed."""


def run_forked(run: Callable[[], object], env: dict, output: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``run()`` in a process forked from this one, with ``env`` added to its environment: its exit status
    (a signal's negative number, if one ended it; ``SystemExit``'s code; 1 for an exception, its traceback on
    stderr), and what it printed, in ``output``'s files ``stdout`` and ``stderr``.

    A process of its own, as a command started anew is, without the most of a second of CPU that importing
    the service costs one: this process has imported it already. In a session of its own, so that one
    killed for running past ``timeout`` takes the processes it started along (``ForkedTimeout``)."""
    out, err = output / "stdout", output / "stderr"
    pid = fork(run, env, out, err)
    exited = os.pidfd_open(pid)
    try:
        if not select.select([exited], [], [], timeout)[0]:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise ForkedTimeout(f"ran past {timeout:g} s:\n{out.read_text()[-2000:]}{err.read_text()[-3000:]}")
        _, wait_status = os.waitpid(pid, 0)
    finally:
        os.close(exited)
    return subprocess.CompletedProcess([], os.waitstatus_to_exitcode(wait_status), out.read_text(), err.read_text())


def _pipe(data: bytes = b"") -> io.TextIOWrapper:
    """A stream as a command's pipe is: text over bytes (``.buffer``), UTF-8, not a terminal."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")


def run_command(env: dict, *args: str, input: bytes | str | None = None) -> subprocess.CompletedProcess:
    """``scoundrel ARGS`` with ``env`` as its whole environment and ``input`` on its standard input: its status
    and what it printed."""
    stdin = _pipe(input.encode() if isinstance(input, str) else input or b"")
    out, err = _pipe(), _pipe()
    with (mock.patch.dict(os.environ, env, clear=True), mock.patch("sys.stdin", stdin), redirect_stdout(out),
          redirect_stderr(err), _process_state_kept()):
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse's refusals
            status = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(["scoundrel", *args], status, _written(out), _written(err))


@contextmanager
def _process_state_kept() -> Iterator[None]:
    """What a command sets up for the rest of its process, put back after it: its logging (``log_lines.configure``
    sends the root logger's and RQ's records to its stderr) and a worker's signal handlers."""
    loggers = [logging.getLogger(), *(logger for logger in logging.Logger.manager.loggerDict.values()
                                      if isinstance(logger, logging.Logger))]
    kept = [(logger, logger.handlers[:], logger.level, logger.propagate) for logger in loggers]
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for logger, its_handlers, level, propagate in kept:
            logger.handlers[:] = its_handlers
            logger.setLevel(level)
            logger.propagate = propagate
        for number, handler in handlers.items():
            signal.signal(number, handler)


def _written(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode()  # a BytesIO (``_pipe``)
