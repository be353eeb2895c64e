"""Alembic's environment for the archive: run by ``store.archive.Archive.upgrade`` on its connection.

The connection comes from the caller (``config.attributes["connection"]``),
already holding the lock that keeps two processes from migrating at once.
"""

from alembic import context

from store.archive.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
