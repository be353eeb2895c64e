"""RQ side of the referee: the verification job and the worker that runs it."""
