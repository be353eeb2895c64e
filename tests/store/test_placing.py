"""A verdict's and a void's board steps (``store.placing``), stopped between any two, then recovered.

Each test writes its runs straight into the stack's store (as accepted runs
are kept) and calls the store's steps itself, so it can stop after any of
them; then the sweeper's part (``finish_placements``) must leave every board
as ``scoundrel check`` (``store.consistency.check``) expects it.
"""

import secrets
import threading
from dataclasses import replace

import pytest

from domain.boards import LADDER_GAMES
from domain.run import PENDING, Run
from domain.seasons import season_at
from store import keys, placing, scripts, shards
from store.boards import board_among, ladder_page, ladder_position
from store.consistency import check
from store.disputes import OPEN, get_dispute, resolve_dispute
from store.origins import DEALT
from store.placements import placements
from store.run_records import stored_fields
from store.runs import now_ms, write_verdicts
from store.seasons import SEASON_PART, close_season

pytestmark = pytest.mark.cluster_too


def pending_run(db, player: str, score: int, *, dealt: bool = False, at_ms: int | None = None) -> Run:
    """A pending run of ``player`` kept as an accepted one is: its hash, its player's lists."""
    run = Run(id=secrets.token_hex(8), player=player, variant="classic", seed=None if dealt else f"s{score}",
              status=PENDING, score=None, submitted_ms=at_ms or now_ms(), origin=DEALT if dealt else "open",
              game_id=f"{player}-{secrets.token_hex(4)}" if dealt else None)
    db.redis.hset(keys.run(run.id), mapping=stored_fields(run))
    db.redis.zadd(keys.player_runs(player), {run.id: run.submitted_ms})
    db.redis.zadd(keys.run_players(shards.of_name(player)), {player: run.submitted_ms}, nx=True)
    return run


def verdict(score: int) -> dict:
    return {"status": "verified", "outcome": "won", "score": score, "health": max(score, 1), "ruleset": "r",
            "engine": "e"}


def placed_and_verified(db, prefix: str) -> tuple[str, Run, Run]:
    """A player's run placed on its boards (score 4), then a better one verified, its places owed (8)."""
    player = f"{prefix}{secrets.token_hex(3)}"
    kept = pending_run(db, player, 4)
    write_verdicts(db, [(kept, verdict(4))])
    placing.place_runs(db, [kept])
    verified = pending_run(db, player, 8, at_ms=now_ms() + 5)
    write_verdicts(db, [(verified, verdict(8))])
    return player, kept, verified


def consistent(db) -> list[str]:
    return check(db, pending_limit_seconds=3600)


def place(db, run: Run) -> dict[str, str]:
    """Each board step of ``run``, alone (as a driver stopped before ending its placing): the answers."""
    loaded = placing.load_board_runs(db, [run.id])[0]
    assert loaded is not None
    answers = {}
    for index, board in enumerate(placements(loaded), 1):
        version = db.redis.hget(board.versions, run.player) or ""
        answers[board.board.board.kind] = scripts.place_run(db.redis, board=board, version=version, run=loaded,
                                                            index=index, at_ms=now_ms())
    return answers


def test_a_verdict_step_alone_is_placed_by_the_sweep(db):
    player = f"v{secrets.token_hex(3)}"
    run = pending_run(db, player, 10)
    assert write_verdicts(db, [(run, verdict(10))]) == [True]
    assert db.redis.zscore(keys.placing(shards.of_id(run.id)), run.id) is not None
    assert run.id in placing.in_flight(db)
    assert any(run.id in problem or player in problem for problem in consistent(db))  # owed, not yet placed
    placing.finish_placements(db)
    assert consistent(db) == []
    assert db.redis.zscore(keys.placing(shards.of_id(run.id)), run.id) is None
    assert run.id not in placing.in_flight(db)
    board = placements(placing.load_board_runs(db, [run.id])[0])[0]
    assert db.redis.hget(board.keys[1], player) == run.id


def test_a_ladder_counts_a_game_once_however_often_it_is_offered(db):
    player = f"l{secrets.token_hex(3)}"
    runs = [pending_run(db, player, score, dealt=True, at_ms=now_ms() + score) for score in range(LADDER_GAMES)]
    write_verdicts(db, [(run, verdict(5)) for run in runs])
    first = place(db, runs[0])  # a driver stopped after its board steps, before ending its placing
    assert set(first.values()) == {"placed"}
    assert set(place(db, runs[0]).values()) == {"known"}  # offered again: nothing changes
    placing.finish_placements(db)  # the sweeper drives every run: the first one's steps find it held
    assert consistent(db) == []
    ladder = next(board for board in placements(runs[0]) if board.board.board.kind == "ladder")
    assert db.redis.hget(ladder.keys[2], player) == str(LADDER_GAMES)
    assert db.redis.zscore(ladder.keys[0], player) is not None
    # the ladder's reads name its windows from its own tag: one shard's keys, on a cluster too
    position = ladder_position(db, ladder.board, player, 1)
    assert position is not None
    total, entries = ladder_page(db, ladder.board, 0, 500)
    assert any(entry["player"] == player for entry in entries) and total >= 1
    assert board_among(db, ladder.board, [player], 0, 10)[0] == 1


def test_a_recompute_counts_a_run_still_being_placed_once(db):
    player = f"r{secrets.token_hex(3)}"
    older = pending_run(db, player, 3, dealt=True)
    write_verdicts(db, [(older, verdict(3))])
    placing.place_runs(db, [older])
    newer = pending_run(db, player, 7, dealt=True, at_ms=now_ms() + 5)
    write_verdicts(db, [(newer, verdict(7))])  # the verdict step only: its places still owed
    placing.recompute_places(db, older)  # a void of another run, say: it counts the newer run
    assert consistent(db) == []
    placing.place_runs(db, [newer])  # the newer run's own board steps come after: held already
    assert consistent(db) == []
    ladder = next(board for board in placements(older) if board.board.board.kind == "ladder")
    assert db.redis.hget(ladder.keys[2], player) == "2"


def test_a_recompute_that_read_before_a_verdict_placed_reads_again(db, monkeypatch):
    player = f"q{secrets.token_hex(3)}"
    low = pending_run(db, player, 2)
    write_verdicts(db, [(low, verdict(2))])
    placing.place_runs(db, [low])
    high = pending_run(db, player, 9, at_ms=now_ms() + 5)
    reads = []
    archived_runs = placing._archived_runs

    def verdict_between(db_, player_, hot):  # the recompute has read the runs: a verdict lands, placed
        if not reads:
            write_verdicts(db, [(high, verdict(9))])
            placing.place_runs(db, [high])
        reads.append(hot)
        return archived_runs(db_, player_, hot)

    monkeypatch.setattr(placing, "_archived_runs", verdict_between)
    placing.recompute_places(db, low)
    assert len(reads) >= 2  # refused ('moved'), read again
    assert consistent(db) == []
    board = placements(low)[0]
    assert db.redis.hget(board.keys[1], player) == high.id


def test_a_players_runs_placed_side_by_side_never_refuse_each_other(db, monkeypatch):
    player = f"b{secrets.token_hex(3)}"
    runs = [pending_run(db, player, score, dealt=True, at_ms=now_ms() + score) for score in range(1, 21)]
    write_verdicts(db, [(run, verdict(run.score or 0)) for run in runs])
    rounds = []
    board_steps = placing._board_steps

    def counted(db_, steps):
        rounds.append(len(steps))
        return board_steps(db_, steps)

    monkeypatch.setattr(placing, "_board_steps", counted)
    placing.place_runs(db, runs)  # as a worker places a batch of one player's verdicts
    assert rounds == [sum(len(placements(run)) for run in runs)]  # every offer held, in one round
    assert consistent(db) == []
    ladder = next(board for board in placements(runs[0]) if board.board.board.kind == "ladder")
    assert db.redis.hget(ladder.keys[2], player) == str(len(runs))


def test_an_offer_read_before_a_void_and_its_recompute_is_refused(db):
    player, kept, voided = placed_and_verified(db, "f")
    loaded = placing.load_board_runs(db, [voided.id])[0]
    board = placements(loaded)[0]
    read = db.redis.hget(board.versions, player) or ""  # a driver reads the version and the run, then stalls
    scripts.resolve_dispute(db.redis, run_id=voided.id, dispute_id=secrets.token_hex(8), moderator="mia",
                            decision="void", note="", at_ms=now_ms())
    placing.recomputed(db, voided)
    late = scripts.place_run(db.redis, board=board, version=read, run=loaded, index=1, at_ms=now_ms())
    assert late == scripts.MOVED
    assert db.redis.hget(board.keys[1], player) == kept.id


def test_a_run_voided_while_being_placed_never_comes_back(db):
    player, kept, voided = placed_and_verified(db, "w")
    place(db, voided)  # its board steps done, its placing not ended
    assert scripts.resolve_dispute(db.redis, run_id=voided.id, dispute_id="d" + secrets.token_hex(7),
                                   moderator="mia", decision="void", note="", at_ms=now_ms()) == "voided"
    placing.finish_placements(db)  # the void's recompute owed, and the voided run's placing: both finished
    assert consistent(db) == []
    assert db.redis.zscore(keys.replacing(shards.of_id(voided.id)), voided.id) is None
    board = placements(kept)[0]
    assert db.redis.hget(board.keys[1], player) == kept.id


def test_a_late_verdict_of_a_closed_season_lands_on_the_all_time_boards_only(db):
    player = f"z{secrets.token_hex(3)}"
    past = season_at(db.seasons, now_ms() - 400 * 24 * 3600 * 1000)  # long ended
    run = pending_run(db, player, 6, dealt=True)
    run = replace(run, season=past.id)
    db.redis.hset(keys.run(run.id), "season", past.id)
    close_season(db, past)
    for shard in keys.distinct_shards():  # every shard's own list holds it, as the service's does
        assert db.redis.zscore(keys.closed(SEASON_PART, shard), past.id) is not None
    write_verdicts(db, [(run, verdict(6))])
    placing.finish_placements(db)
    boards = {board.board.board.kind: board for board in placements(run)}
    assert db.redis.hget(boards["dealt"].keys[1], player) == run.id
    assert db.redis.zscore(boards["season"].keys[0], player) is None
    assert consistent(db) == []


def test_a_resolve_cut_short_after_the_runs_step_is_finished_by_resolving_again(db):
    player = f"d{secrets.token_hex(3)}"
    kept = pending_run(db, player, 1)
    voided = pending_run(db, player, 9, at_ms=now_ms() + 5)
    write_verdicts(db, [(kept, verdict(1)), (voided, verdict(9))])
    placing.place_runs(db, [kept, voided])
    dispute_id = secrets.token_hex(8)  # a dispute as filing one keeps it
    db.redis.hset(keys.dispute(dispute_id), mapping={"id": dispute_id, "run_id": voided.id, "player": "bob",
                                                     "reason": "Impossible.", "status": OPEN, "filed_ms": now_ms()})
    db.redis.zadd(keys.disputes(OPEN), {dispute_id: now_ms()})
    # the run's step alone (the moderator's request died after it): void, owed a recompute
    assert scripts.resolve_dispute(db.redis, run_id=voided.id, dispute_id=dispute_id, moderator="mia",
                                   decision="void", note="", at_ms=now_ms()) == "voided"
    assert get_dispute(db, dispute_id)["status"] == OPEN
    placing.finish_placements(db)  # the sweeper recomputes the places
    assert consistent(db) == []
    # resolving again (even as an uphold) finds the void written and closes the dispute with it
    resolved = resolve_dispute(db, dispute_id, "max", "uphold", "")
    assert resolved["status"] == "resolved" and resolved["decision"] == "void"
    log = db.redis.hget(keys.run(voided.id), "log") or ""
    assert log.count(dispute_id) == 1  # the void's entry, once
    assert consistent(db) == []
    assert db.redis.hget(placements(kept)[0].keys[1], player) == kept.id


def test_verdicts_voids_and_restores_racing_recomputes_leave_the_boards_right(db):
    player = f"c{secrets.token_hex(3)}"
    base = now_ms()
    first = pending_run(db, player, 1, dealt=True, at_ms=base)
    write_verdicts(db, [(first, verdict(1))])
    placing.place_runs(db, [first])
    later = [pending_run(db, player, score, dealt=True, at_ms=base + score) for score in range(2, 26)]
    errors: list[BaseException] = []

    def guarded(work):
        def run():
            try:
                work()
            except BaseException as error:  # noqa: BLE001 - reported by the test
                errors.append(error)
        return threading.Thread(target=run)

    def verdicts():
        for run in later:
            write_verdicts(db, [(run, verdict(run.submitted_ms - base))])
            placing.place_runs(db, [run])

    def recomputes():
        for _ in range(25):
            placing.recompute_places(db, first)

    def voids_and_restores():
        for _ in range(8):
            scripts.resolve_dispute(db.redis, run_id=first.id, dispute_id=secrets.token_hex(8), moderator="mia",
                                    decision="void", note="", at_ms=now_ms())
            placing.recomputed(db, first)
            scripts.restore_run(db.redis, run_id=first.id, moderator="mia", at_ms=now_ms())
            placing.recomputed(db, first)

    threads = [guarded(verdicts), guarded(recomputes), guarded(voids_and_restores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert placing.in_flight(db) & {run.id for run in [first, *later]} == set()
    assert consistent(db) == []
    ladder = next(board for board in placements(first) if board.board.board.kind == "ladder")
    assert db.redis.hget(ladder.keys[2], player) == str(1 + len(later))


def test_a_season_close_cut_short_after_the_shards_lists_is_closed_by_the_next_pass(db):
    if keys.closed(SEASON_PART, 0) == keys.closed(SEASON_PART):
        pytest.skip("one Redis: every shard's list is the service's, written in one step")
    past = season_at(db.seasons, now_ms() - 800 * 24 * 3600 * 1000)
    for shard in keys.distinct_shards():  # the first step alone: every shard's list, not the service's
        db.redis.zadd(keys.closed(SEASON_PART, shard), {past.id: past.ends_ms}, nx=True)
    assert db.redis.zscore(keys.closed(SEASON_PART), past.id) is None  # not over yet, as readers see it
    assert close_season(db, past) is True  # the next pass: the service's list, with its event
    assert db.redis.zscore(keys.closed(SEASON_PART), past.id) is not None
    assert close_season(db, past) is False  # once
