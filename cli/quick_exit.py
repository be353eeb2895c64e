"""Leaving a long-running process (``scoundrel api``'s gunicorn master, ``scoundrel worker``) at once.

Once such a process has stopped its work, what is left to do before it exits is
the interpreter's teardown: freeing every module of the service, about a second
on its own, which ``scoundrel up`` (and an orchestrator waiting on a stop) would
wait for. Nothing in it is needed: the stores are closed, and the logs and
standard streams are flushed here first.
"""

import logging
import os
import sys


def exit_now(status: int) -> None:
    """Flush the logs and standard streams, then end the process with ``status`` without the teardown."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away, a stream already closed
            pass
    os._exit(status)
