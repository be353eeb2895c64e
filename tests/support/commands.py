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
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from unittest import mock

from cli.main import main


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
