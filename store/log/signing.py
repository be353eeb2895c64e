"""The log's signer key, read from the file ``SCOUNDREL_LOG_KEY`` names (``scoundrel log keygen`` writes it)."""

from pathlib import Path

from settings import SettingsError

from .notes import NoteError, Signer, parse_signer


class LogKeyError(SettingsError):
    """The key file is missing, unreadable or not a signer key: a setting refused, one line that says which
    and why (every command prints a ``SettingsError`` so)."""


def load_signer(path: str) -> Signer | None:
    """The signer key in the file at ``path``; None when ``path`` is empty (no checkpoints are signed)."""
    if not path:
        return None
    try:
        return parse_signer(Path(path).expanduser().read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError, NoteError) as error:
        raise LogKeyError(f"SCOUNDREL_LOG_KEY={path!r}: {error}") from None
