"""The public log of every change to what a board shows (``domain.transparency``): its newest leaves in
Redis (``leaves``), the rest with its complete subtrees and signed checkpoints in the archive (``tree``)."""

from .leaves import forget_player, leaf_of, leaf_parts, log_keys, player_leaf_parts, pseudonyms, reveal_leaf_parts
from .notes import NoteError, Signer, Verifier, open_note, parse_signer, parse_verifier
from .signing import LogKeyError, load_signer
from .tree import (
    Entry,
    archived_size,
    checkpoints,
    entries,
    latest_checkpoint,
    leaf_index,
    move_leaves,
    prove_consistency,
    prove_inclusion,
    publish,
    resume_log,
    run_log_entry,
    sign_checkpoint,
    tree_root,
)

__all__ = [
    "Entry", "LogKeyError", "NoteError", "Signer", "Verifier", "archived_size", "checkpoints", "entries",
    "forget_player", "latest_checkpoint", "leaf_index", "leaf_of", "leaf_parts", "load_signer", "log_keys",
    "move_leaves", "open_note", "parse_signer", "parse_verifier", "player_leaf_parts", "prove_consistency",
    "prove_inclusion", "pseudonyms", "publish", "resume_log", "reveal_leaf_parts", "run_log_entry",
    "sign_checkpoint", "tree_root",
]
