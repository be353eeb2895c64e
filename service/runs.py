"""``/v1/runs``: submitting a game and reading a run."""

from dataclasses import asdict, replace

from flask import g, jsonify, request, url_for
from werkzeug.routing import BaseConverter

import scoundrel
from domain.daily_seed import daily_seed, today
from domain.sealing import is_sealed, shown
from domain.transparency import b64
from schemas import SubmissionSchema, load_submission
from schemas.batch import BatchResultSchema, BatchSchema, first_error
from schemas.runs import RunIdsArgs, RunListSchema, RunSchema
from store import Submission, accept_runs, find_runs, get_run, requeue_run, submit_run
from store.log import run_log_entry

from .api import Blueprint, error_response
from .auth import BEARER, is_moderator, moderator_endpoint, player_required, submitter_required
from .context import db, referee, revealed
from .errors import abort
from .par import run_par
from .player_moderation import refuse_banned
from .request_log import request_id

blp = Blueprint("runs", __name__, url_prefix="/v1/runs", description="Submitted runs and their verdicts")

BATCH = "batch"  # ``/v1/runs/batch``, the batch submission: never a run's id


class RunIdConverter(BaseConverter):
    """``<run_id:…>``: a path segment other than ``batch``, so ``/v1/runs/batch`` is the batch submission alone
    (its ``Allow`` lists POST, not a run's GET)."""

    regex = f"(?!{BATCH}$)[^/]+"


def run_id_parameter(converter: RunIdConverter) -> dict:
    """The OpenAPI schema of a ``<run_id:…>`` path parameter."""
    return {"type": "string", "pattern": f"^(?!{BATCH}$)[^/]+$", "description": "a run's id"}

MAX_IDEMPOTENCY_KEY = 255


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        abort(422, message="Bad Idempotency-Key header.",
              errors={"Idempotency-Key": [f"Must be 1-{MAX_IDEMPOTENCY_KEY} printable characters."]})
    return key


RUN_SCHEMA = RunSchema()
BATCH_JOB_RUNS = 100  # runs verified by one job of a batch: few jobs, still spread over the workers


def _daily_date(submission: dict) -> str:
    """Today's date if the run plays today's daily seed in the ranked variant, else ""."""
    if submission["variant"] != scoundrel.CLASSIC:
        return ""
    day = today()
    return day.isoformat() if submission["seed"] == daily_seed(referee().daily_secret(), day) else ""


def _submission(body: dict, idempotency_key: str | None = None) -> Submission:
    return Submission(body["seed"], body["variant"], body["moves"], daily=_daily_date(body),
                      idempotency_key=idempotency_key or "", server_key=g.get("server_key") or "")


@blp.route("", methods=["POST"])
@blp.doc(security=BEARER)
@submitter_required
@blp.arguments(SubmissionSchema())
@blp.response(202, RunSchema, description="Accepted; verification is queued")
@blp.alt_response(200, schema=RunSchema, description="The same game was already submitted by this player")
@error_response(blp, 401, "No or wrong player token")
@error_response(blp, 403, "A banned player (reason banned)")
def submit(submission):
    """Submit a game for verification (403, reason banned, for a banned player: the store reads the ban with
    the token, in the one step that accepts the run)."""
    run, created = submit_run(db(), g.player, _submission(submission, _idempotency_key()), request_id=request_id(),
                              token_hash=g.token_hash)
    return run, 202 if created else 200, {"Location": url_for("runs.show", run_id=run.id)}


@blp.route(f"/{BATCH}", methods=["POST"])
@blp.doc(security=BEARER)
@player_required
@blp.arguments(BatchSchema())
@blp.response(200, BatchResultSchema, description="Each item's outcome: 202 new run, 200 already submitted, 422 "
                                                   "malformed (with its first error); new runs are verified by a few "
                                                   "jobs for the whole batch")
@blp.alt_response(401, description="No or wrong player token")
@error_response(blp, 403, "A banned player (reason banned)")
def submit_batch(batch):
    """Submit up to 1,000 games at once; each is accepted or refused on its own (the whole batch refused, 403
    with reason banned, for a banned player)."""
    refuse_banned(g.player)
    results, well_formed = [], []
    for index, item in enumerate(batch["runs"]):
        submission, errors = load_submission(item)
        results.append({"index": index, "status": 422, "run": None, "errors": first_error(errors) if errors else None})
        if submission is not None:
            well_formed.append((index, _submission(submission)))
    outcomes = accept_runs(db(), g.player, [submission for _, submission in well_formed],
                           request_id=request_id(), runs_per_job=BATCH_JOB_RUNS)
    for (index, _), (run, created) in zip(well_formed, outcomes, strict=True):
        results[index].update(status=202 if created else 200, run=RUN_SCHEMA.dump(run))
    counts = [result["status"] for result in results]
    return jsonify(accepted=counts.count(202), existing=counts.count(200), invalid=counts.count(422),
                   results=results)


@blp.route("", methods=["GET"])
@blp.arguments(RunIdsArgs(), location="query")
@blp.response(200, RunListSchema)
def show_many(args):
    """Up to 100 runs by id, in one request, each as a player's runs show it (``/v1/runs/<id>`` adds its par and
    its leaf in the public log); an id with no run is left out. For reading many runs, as ``scoundrel log export``
    does."""
    moderator = is_moderator()
    return {"runs": [shown(run, revealed, moderator) for run in find_runs(db(), args["ids"]) if run is not None]}


@blp.route("/<run_id:run_id>")
@blp.response(200, RunSchema)
@error_response(blp, 404, "No such run")
def show(run_id):
    """A run with its status and, once verified or rejected, its verdict.

    A sealed daily run shows its seed and moves once its UTC day is over
    (to moderators at once).
    """
    run = shown(get_run(db(), run_id), revealed, is_moderator())
    found = run_par(replace(run, seed=None) if is_sealed(run, revealed) else run)
    extra = {} if found is None else {"par": found, "from_par": found.from_par(run.score or 0)}
    # its latest leaf in the public log (docs/transparency.md), where the service signs the log's checkpoints:
    # a place no one could check is not offered
    logged = run_log_entry(db(), run.id) if referee().settings.log_key else None
    if logged is not None:
        extra["log"] = {"index": logged[0], "leaf_hash": b64(logged[1])}
    return {**asdict(run), **extra} if extra else run


@blp.route("/<run_id>/requeue", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(202, RunSchema, description="Pending again; verification is queued")
@error_response(blp, 404, "No such run")
@error_response(blp, 409, "The run is not in error")
def requeue(run_id):
    """Queue verification again for a run whose verification failed (status ``error``)."""
    return requeue_run(db(), run_id, g.moderator), 202, {"Location": url_for("runs.show", run_id=run_id)}
