"""Moderators' changes: restoring a voided run, recording a re-verification, queueing an ``error`` run
again (``restoring``), disputes (``disputes``) and flags for moderators (``flags``)."""
