"""``/v1/schedules``: moderators' schedules, each making a tournament at every time its cron expression
names (``domain.schedules``, ``store.schedules``; docs/tournaments.md)."""

from dataclasses import asdict
from itertools import islice

from flask import g, url_for

from domain.schedules import Schedule
from schemas.paging import PageArgs
from schemas.schedules import ScheduleCreateSchema, SchedulePageSchema, ScheduleSchema
from store.base import now_ms
from store.schedules import create_schedule, delete_schedule, load_schedule, pause_schedule, schedule_page

from .api import Blueprint, error_response
from .auth import moderator_endpoint
from .context import db

NEXT_SHOWN = 5
NEXT_WITHIN_MS = 400 * 24 * 3600 * 1000  # the next starts shown are those within about a year

blp = Blueprint("schedules", __name__, url_prefix="/v1/schedules",
                description="Schedules: tournaments that make themselves from a cron expression, with rewards")


def schedule_view(schedule: Schedule) -> dict:
    """The schedule as ``ScheduleSchema`` shows it, with its next starts."""
    at = now_ms()
    return {**asdict(schedule),
            "next_starts_at": list(islice(schedule.occurrences(at, at + NEXT_WITHIN_MS), NEXT_SHOWN))}


@blp.route("", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(ScheduleCreateSchema())
@blp.response(201, ScheduleSchema)
def create(body):
    """Define a schedule (a moderator): the workers make each of its tournaments a day ahead, once."""
    schedule = create_schedule(db(), title=body["title"], cron=body["cron"], timezone=body["timezone"],
                               duration_s=body["duration_s"], template=body["tournament"], created_by=g.moderator)
    return schedule_view(schedule), 201, {"Location": url_for("schedules.show", schedule_id=schedule.id)}


@blp.route("")
@moderator_endpoint(blp)
@blp.arguments(PageArgs(), location="query")
@blp.response(200, SchedulePageSchema)
def listing(args):
    """Every schedule, oldest first, with ``total``."""
    total, found = schedule_page(db(), args["offset"], args["limit"])
    return {"total": total, "schedules": [schedule_view(one) for one in found]}


@blp.route("/<schedule_id>")
@moderator_endpoint(blp)
@blp.response(200, ScheduleSchema)
@error_response(blp, 404, "No such schedule")
def show(schedule_id):
    """A schedule."""
    return schedule_view(load_schedule(db(), schedule_id))


@blp.route("/<schedule_id>/pause", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(200, ScheduleSchema)
@error_response(blp, 404, "No such schedule")
def pause(schedule_id):
    """Pause a schedule: it makes no more tournaments (those made already stay)."""
    return schedule_view(pause_schedule(db(), schedule_id, paused=True))


@blp.route("/<schedule_id>/resume", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(200, ScheduleSchema)
@error_response(blp, 404, "No such schedule")
def resume(schedule_id):
    """Resume a schedule: it makes its tournaments from now on (none of the pause is made late)."""
    return schedule_view(pause_schedule(db(), schedule_id, paused=False))


@blp.route("/<schedule_id>", methods=["DELETE"])
@moderator_endpoint(blp)
@blp.response(204)
@error_response(blp, 404, "No such schedule")
def delete(schedule_id):
    """Delete a schedule: it makes nothing more; the tournaments it made stay."""
    delete_schedule(db(), schedule_id)
