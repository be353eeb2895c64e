"""Responses compressed with gzip for a client that asks for it (``Accept-Encoding``), by Flask-Compress.

Pages, JSON, styles, scripts and SVG of 500 bytes or more go out compressed
(``/play`` and its script to about a third of their size); images already
compressed (the share card's PNG) and answers other than 2xx go out as they
are. Every answer says ``Vary: Accept-Encoding``, so a cache keeps the two
spellings apart. gzip alone: every client reads it, and one encoding is one
spelling of each answer to reason about.

A file (a static folder's, Swagger UI's) is sent in chunks; compressed, its
strong ETag gains ``:gzip`` (the compressed bytes are other bytes), and the
file views are listed as ``COMPRESS_STREAMING_ENDPOINT_CONDITIONAL`` so that
an ``If-None-Match`` with that ETag still answers 304 after the change.
"""

from flask import Flask
from flask_compress import Compress


def _file_endpoints(app: Flask) -> list[str]:
    """The endpoints of the app's static folders (Flask names each ``static``, a blueprint's ``<name>.static``)."""
    return sorted({rule.endpoint for rule in app.url_map.iter_rules() if rule.endpoint.rsplit(".", 1)[-1] == "static"})


def init_app(app: Flask) -> None:
    """Compress the app's answers; call it once every blueprint is registered (their file views are looked up)."""
    app.config.update(
        COMPRESS_ALGORITHM=["gzip"],
        COMPRESS_ALGORITHM_STREAMING=["gzip"],
        COMPRESS_STREAMING_ENDPOINT_CONDITIONAL=_file_endpoints(app),
    )
    Compress(app)
