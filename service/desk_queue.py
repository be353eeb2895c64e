"""The desk's queue: what waits for a moderator, in four sections, each counted, filtered and paged.

- **disputes**: open disputes, oldest first (``store.moderation.list_disputes``);
- **flags**: open flags, newest first, by kind (``store.moderation.flag_page``);
- **reports**: players' open reports, oldest first (``store.sanctions.list_reports``);
- **re-verify**: runs whose verification kept failing, oldest first (``store.desk.errored_page``).

Each item names its run where it has one, and who is on the run's case
(``store.desk.cases_taken``). Filters (a board's name, a variant, a player)
are read against the item's run (its player and the boards it counts on) and
the players it names; a filtered section is read whole, a chunk at a time, to
count what matches: the unfiltered first page, what a moderator opens the
desk on, reads one page.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

from domain.boards import boards_of
from domain.run import Run
from schemas.players import name_key
from store import load_runs
from store.base import iso_time
from store.desk import FLAG_OPEN, Taken, Waiting, cases_taken, errored_page, waiting
from store.moderation import OPEN, Flag, flag_page, list_disputes
from store.sanctions import REPORT_OPEN, REPORTED_RUN, list_reports

from .board_names import shown
from .context import db

PAGE_SIZE = 25
SCAN_CHUNK = 500  # records read at a time by a filtered section
DISPUTES, FLAGS, REPORTS, REVERIFY = "disputes", "flags", "reports", "reverify"


@dataclass(frozen=True)
class Filters:
    """What a moderator narrowed the queue to: a board's name (as in ``/boards/<name>``), a variant, a player."""

    board: str | None = None
    variant: str | None = None
    player: str | None = None

    def __bool__(self) -> bool:
        return any((self.board, self.variant, self.player))

    def admit(self, item: "Item") -> bool:
        run = item.run
        if self.variant and (run is None or run.variant != self.variant):
            return False
        if self.board and (run is None or self.board not in _board_names(run)):
            return False
        return not self.player or name_key(self.player) in {name_key(name) for name in item.players}


def _board_names(run: Run) -> set[str]:
    return {shown(board).path.removeprefix("/boards/") for board in boards_of(run)}


@dataclass(frozen=True)
class Item:
    """One thing waiting: what it is (``kind``, ``id``), a sentence of it, when it came, its run if it has one,
    the players it names, and who is on the run's case."""

    kind: str
    id: str
    label: str
    summary: str
    at: str | None
    run_id: str | None
    run: Run | None
    players: tuple[str, ...]
    taken: Taken | None = None


@dataclass(frozen=True)
class Section:
    """A section of the queue: its records read a page at a time (``(total, records)``), and turned into items."""

    name: str
    title: str
    read: Callable[[int, int, str | None], tuple[int, list]]
    items: Callable[[list, dict[str, Run]], list[Item]]
    run_of: Callable[[object], str | None]


def _disputes(offset: int, limit: int, _kind: str | None) -> tuple[int, list]:
    return list_disputes(db(), OPEN, offset, limit)


def _dispute_items(disputes: list, runs: dict[str, Run]) -> list[Item]:
    return [Item(DISPUTES, dispute["id"], f"Dispute by {dispute['player']}", dispute["reason"], dispute["filed_at"],
                 dispute["run_id"], run := runs.get(dispute["run_id"]),
                 (dispute["player"], *((run.player,) if run else ()))) for dispute in disputes]


def _flags(offset: int, limit: int, kind: str | None) -> tuple[int, list]:
    return flag_page(db(), kind, FLAG_OPEN, offset, limit)


def _flag_run(flag: object) -> str | None:
    assert isinstance(flag, Flag)
    return flag.run_id or (flag.run_ids[0] if flag.run_ids else None)


def _flag_items(flags: list, runs: dict[str, Run]) -> list[Item]:
    return [Item(FLAGS, flag.id, flag.reason.replace("_", " "), _flag_summary(flag), iso_time(flag.created_ms),
                 run_id := _flag_run(flag), runs.get(run_id or ""), tuple(flag.players)) for flag in flags]


def _flag_summary(flag: Flag) -> str:
    seen = flag.detail
    if "median_ms" in seen:
        return f"median {seen['median_ms']} ms between moves over {seen.get('timed_moves')} moves"
    if "perfect" in seen:
        return f"{seen['perfect']} perfect of {seen['telling']} telling choices in {len(seen.get('runs', []))} games"
    return f"{', '.join(flag.players)} shared one address on {seen.get('date')}"


def _reports(offset: int, limit: int, _kind: str | None) -> tuple[int, list]:
    return list_reports(db(), REPORT_OPEN, None, None, None, offset, limit)


def _report_run(report: object) -> str | None:
    assert isinstance(report, dict)
    return report["target"] if report["kind"] == REPORTED_RUN else None


def _report_items(reports: list, runs: dict[str, Run]) -> list[Item]:
    items = []
    for report in reports:
        run = runs.get(_report_run(report) or "")
        named = (run.player,) if run else () if report["kind"] == REPORTED_RUN else (report["target"],)
        items.append(Item(REPORTS, report["id"], f"{report['reason'].replace('_', ' ')}: {report['kind']} "
                          f"{report['target']}", report["text"], report["filed_at"], _report_run(report), run,
                          (report["reporter"], *named)))
    return items


def _errored(offset: int, limit: int, _kind: str | None) -> tuple[int, list]:
    return errored_page(db(), offset, limit)


def _errored_items(run_ids: list, runs: dict[str, Run]) -> list[Item]:
    return [Item(REVERIFY, run_id, "Verification failed", (run.error or {}).get("message", "") if run else "",
                 iso_time(run.submitted_ms) if run else None, run_id, run, (run.player,) if run else ())
            for run_id in run_ids if (run := runs.get(run_id)) is not None]


SECTIONS = {section.name: section for section in (
    Section(DISPUTES, "Disputes", _disputes, _dispute_items, lambda dispute: dispute["run_id"]),  # type: ignore
    Section(FLAGS, "Flags", _flags, _flag_items, _flag_run),
    Section(REPORTS, "Reports", _reports, _report_items, _report_run),
    Section(REVERIFY, "Re-verify", _errored, _errored_items, lambda run_id: run_id),  # type: ignore
)}


def _items(section: Section, records: list) -> list[Item]:
    run_ids = [run_id for record in records if (run_id := section.run_of(record))]
    runs = {run.id: run for run in load_runs(db(), run_ids) if run is not None}
    return section.items(records, runs)


@dataclass(frozen=True)
class QueuePage:
    """One page of a section, with how much waits in every section and of each kind of flag."""

    section: Section
    total: int
    items: list[Item]
    waiting: Waiting


def queue_page(name: str, kind: str | None, filters: Filters, page: int) -> QueuePage:
    """Page ``page`` (from 1) of section ``name`` (of flags, of ``kind`` if given), narrowed by ``filters``."""
    section = SECTIONS[name]
    offset = (page - 1) * PAGE_SIZE
    if not filters:
        total, records = section.read(offset, PAGE_SIZE, kind)
        items = _items(section, records)
    else:
        matched: list[Item] = []
        start = 0
        while True:
            _, records = section.read(start, SCAN_CHUNK, kind)
            matched += [item for item in _items(section, records) if filters.admit(item)]
            if len(records) < SCAN_CHUNK:
                break
            start += SCAN_CHUNK
        total, items = len(matched), matched[offset:offset + PAGE_SIZE]
    taken = cases_taken(db(), sorted({item.run_id for item in items if item.run_id}))
    items = [replace(item, taken=taken.get(item.run_id or "")) for item in items]
    return QueuePage(section, total, items, waiting(db()))
