"""The ``scoundrel`` command line: the engine and the service from a shell.

Each subcommand lives in its own module with a ``register(subparsers)``
function; ``cli.main`` lists those modules and nothing else.
"""
