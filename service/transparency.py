"""``/v1/log/…``: the public log of every change to what a board shows, its signed checkpoints and proofs.

Public, no token, cacheable: a proof about a tree of a given size, and the
leaves of a tree, never change once the log has that size, so they are
cached for long; the newest checkpoint for the signing interval. The leaves
name players only by pseudonym (``domain.transparency``). How a player
checks a board with these: docs/transparency.md.
"""

import base64
import functools

from flask import Response

from domain.transparency import PAGE_MOST, ProofError, b64
from schemas.log import (
    CheckpointsSchema,
    ConsistencyArgs,
    ConsistencySchema,
    EntriesArgs,
    InclusionArgs,
    InclusionSchema,
    LogEntriesSchema,
)
from schemas.paging import PageArgs
from store.log import (
    archived_size,
    checkpoints,
    entries,
    latest_checkpoint,
    leaf_index,
    load_signer,
    prove_consistency,
    prove_inclusion,
)

from .api import Blueprint, error_response
from .context import db, referee
from .errors import abort

blp = Blueprint("log", __name__, url_prefix="/v1/log",
                description="The public log: every verdict, void and restore, in a signed Merkle tree")

FIXED = "public, max-age=31536000, immutable"  # what a tree of a given size proves never changes


def _text(body: str, max_age: int) -> Response:
    return Response(body, mimetype="text/plain", headers={"Cache-Control": f"public, max-age={max_age}"})


@blp.route("/checkpoint")
@blp.response(200, content_type="text/plain")
@error_response(blp, 404, "No checkpoint signed yet")
def checkpoint():
    """The newest signed checkpoint: a C2SP signed note of the log's origin, tree size and base64 root hash."""
    latest = latest_checkpoint(db())
    if latest is None:
        abort(404, message="No checkpoint has been signed yet.")
    return _text(latest[1], _interval())


@blp.route("/checkpoints")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, CheckpointsSchema)
def every_checkpoint(args):
    """Every checkpoint signed, smallest tree first, paged: each one a later one must be consistent with."""
    total, notes = checkpoints(db(), args["offset"], args["limit"])
    return {"total": total, "checkpoints": notes}, 200, {"Cache-Control": f"public, max-age={_interval()}"}


def _interval() -> int:
    return max(1, int(referee().settings.log_interval))


@blp.route("/key")
@blp.response(200, content_type="text/plain")
@error_response(blp, 404, "The log signs no checkpoints (no key)")
def key():
    """The verifier key of the checkpoints, in the note format: ``<name>+<key id>+<base64 key>``."""
    verifier = _verifier(referee().settings.log_key)
    if verifier is None:
        abort(404, message="This service signs no checkpoints.")
    return _text(verifier + "\n", 3600)


@functools.cache
def _verifier(path: str) -> str | None:
    """The verifier key of the signer key at ``path``, read once a process (a new key: a restart)."""
    signer = load_signer(path)
    return None if signer is None else signer.verifier.text()


def _within(size: int, name: str) -> None:
    """A 422 naming ``name`` for a tree larger than the log's. Asked only where a proof could not tell: a
    proof reads subtrees that cover its tree, so a tree the archive lacks fails the proof itself."""
    held = archived_size(db())
    if size > held:
        abort(422, message=f"The log has {held} leaves.", errors={name: [f"At most {held}, the log's size."]})


@blp.route("/entries")
@blp.arguments(EntriesArgs(), location="query")
@blp.response(200, LogEntriesSchema)
def leaves(args):
    """The leaves ``start`` to ``end`` (excluded), at most 1,000 a page: each its text and its hash."""
    end = min(args["end"], args["start"] + PAGE_MOST, archived_size(db()))
    found = entries(db(), args["start"], end)
    page = {"entries": [{"index": entry.index, "leaf": entry.leaf, "leaf_hash": b64(entry.leaf_hash)}
                        for entry in found]}
    return page, 200, {"Cache-Control": FIXED if end == args["end"] else "public, max-age=10"}


@blp.route("/proof/inclusion")
@blp.arguments(InclusionArgs(), location="query")
@blp.response(200, InclusionSchema)
@error_response(blp, 404, "The run, or the leaf, has no leaf in that tree")
def inclusion(args):
    """The audit path of a run's latest leaf (``run``), or of a leaf by its hash (``leaf``), in the tree of
    ``size`` leaves: checked against a checkpoint of that size."""
    size = args["size"]
    if "run" in args:
        index = leaf_index(db(), size, run_id=args["run"])
    else:
        try:
            digest = base64.b64decode(args["leaf"], validate=True)
        except ValueError:  # binascii's error, or a character outside ASCII
            abort(422, message="Not base64.", errors={"leaf": ["Not a base64 SHA-256 hash."]})
        index = leaf_index(db(), size, digest=digest)
    if index is None:
        _within(size, "size")
        abort(404, message=f"No such leaf in the tree of {size}.")
    try:
        leaf, hashes = prove_inclusion(db(), index, size)
    except ProofError:
        _within(size, "size")
        raise
    return ({"index": index, "tree_size": size, "leaf_hash": b64(leaf), "hashes": [b64(h) for h in hashes]},
            200, {"Cache-Control": FIXED})


@blp.route("/proof/consistency")
@blp.arguments(ConsistencyArgs(), location="query")
@blp.response(200, ConsistencySchema)
def consistency(args):
    """The proof that the tree of ``second`` leaves extends the tree of ``first``."""
    if args["first"] in (0, args["second"]):  # a proof of nothing to read
        _within(args["second"], "second")
    try:
        hashes = prove_consistency(db(), args["first"], args["second"])
    except ProofError as error:
        _within(args["second"], "second")
        abort(422, message=str(error), errors={"first": [str(error)]})
    return ({"first": args["first"], "second": args["second"], "hashes": [b64(h) for h in hashes]},
            200, {"Cache-Control": FIXED})
