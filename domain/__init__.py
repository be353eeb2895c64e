"""The service's domain: what a run and a game are, which boards a run counts on, how a game is
dealt and sealed. Between the HTTP layer (``service``, ``worker``, ``cli``) and storage (``store``):
the layers above call it, ``store`` persists its values; it does no I/O of its own and stands on
the engine (``scoundrel``) alone."""
