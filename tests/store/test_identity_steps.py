"""The steps of registering, replacing a token, dismissing a flag and filing a dispute, stopped
between any two (``store.tokens``, ``store.flags``, ``store.disputes``): on one Redis and on a
one-master Redis Cluster, which refuses a script whose keys span slots as a bigger one does.

A stop is a process dying after one Redis call (``Stopping``): what it wrote stays, nothing after
it runs. After any stop no name is lost, no token acts for another holder, and what a retry (or
the step alone, called again) finishes is finished exactly once.
"""

import pytest

from domain.errors import FlagDismissed, NameTaken
from domain.run import DEALT, Run
from store import keys
from store import tokens as store_tokens
from store.disputes import OPEN, file_dispute, list_disputes, log_filing
from store.flags import FAST_MOVES, Finding, dismiss_flag, get_flag, log_dismissal, raise_run_flags, run_flag_id
from store.history import run_audit_log
from store.moderators import create_moderator, moderator_for_token, revoke_moderator
from store.players import create_player, find_player, player_for_token, replace_token
from store.run_records import stored_fields
from tests.support.stores import Stopped, Stopping, emptied_database


@pytest.fixture
def db(store_urls):
    with emptied_database(store_urls) as database:
        yield database


def stopping(db, monkeypatch, command: str, after: int = 1) -> None:
    monkeypatch.setattr(db, "redis", Stopping(db.redis, command, after))


def test_a_registration_stopped_after_its_token_key_loses_no_name_and_its_token_acts_for_no_one(db, monkeypatch):
    issued = []
    real_new_token = store_tokens.new_token
    monkeypatch.setattr(store_tokens, "new_token", lambda holders: issued.append(real_new_token(holders)) or issued[-1])
    with monkeypatch.context() as stop:
        stopping(db, stop, "set")
        with pytest.raises(Stopped):
            create_player(db, "Ada")
    [(orphan, _)] = issued
    assert find_player(db, "ada") is None and player_for_token(db, orphan) is None
    token = create_player(db, "Ada")  # the retry registers the name
    assert player_for_token(db, token) == "Ada" and player_for_token(db, orphan) is None


def test_a_refused_registration_stopped_before_its_token_key_goes_leaves_a_token_that_acts_for_no_one(
        db, monkeypatch):
    token = create_player(db, "Bea")
    issued = []
    real_new_token = store_tokens.new_token
    monkeypatch.setattr(store_tokens, "new_token", lambda holders: issued.append(real_new_token(holders)) or issued[-1])
    with monkeypatch.context() as stop:
        stopping(db, stop, "script")  # the name refused; the process dies before deleting the new token's key
        with pytest.raises(Stopped):
            create_player(db, "BEA")
    [(orphan, orphan_hash)] = issued
    assert db.redis.get(keys.token(orphan_hash)) == "BEA"  # left behind, naming the name in another case
    assert player_for_token(db, orphan) is None and player_for_token(db, token) == "Bea"
    with pytest.raises(NameTaken):
        create_player(db, "bea")


def test_a_moderator_registration_goes_through_the_same_steps(db, monkeypatch):
    with monkeypatch.context() as stop:
        stopping(db, stop, "set")
        with pytest.raises(Stopped):
            create_moderator(db, "Mia")
    token = create_moderator(db, "Mia")
    assert moderator_for_token(db, token) == "Mia" and db.redis.smembers(keys.moderators()) == {"Mia"}
    with pytest.raises(NameTaken):
        create_moderator(db, "MIA")
    assert revoke_moderator(db, "mia") == "Mia" and moderator_for_token(db, token) is None
    assert moderator_for_token(db, create_moderator(db, "MIA")) == "MIA"  # the name is free again


@pytest.mark.parametrize("point", ["before the old key goes", "before the hash is swapped"])
def test_a_token_replacement_stopped_between_steps_never_has_two_tokens_working(db, monkeypatch, point):
    old = create_player(db, "Cyd")
    with monkeypatch.context() as stop:
        if point == "before the old key goes":
            stopping(db, stop, "set")  # the new token's key written
        else:
            stopping(db, stop, "delete")  # and the old token's key deleted
        with pytest.raises(Stopped):
            replace_token(db, "Cyd")
    working = player_for_token(db, old)
    assert working == ("Cyd" if point == "before the old key goes" else None)  # revoked once its key is gone
    new = replace_token(db, "Cyd")  # the retry
    assert new is not None and player_for_token(db, new) == "Cyd" and player_for_token(db, old) is None


def _stored_run(db, number: int) -> Run:
    run = Run(f"run{number:013d}", "Dee", "classic", "s", "verified", 10, 1_800_000_000_000, DEALT)
    db.redis.hset(keys.run(run.id), mapping={**stored_fields(run), "log": "s"})
    return run


def _events(db, run_id: str) -> list[dict]:
    return [entry for entry in run_audit_log(db, run_id) if entry["event"] != "submitted"]


def test_a_dismissal_stopped_before_its_run_s_entry_writes_it_when_dismissed_again(db, monkeypatch):
    run = _stored_run(db, 1)
    raise_run_flags(db, run, [Finding(FAST_MOVES, {"median_ms": 4})], kept=100)
    flag_id = run_flag_id(FAST_MOVES, run.id)
    with monkeypatch.context() as stop:
        stopping(db, stop, "script")  # the flag dismissed; the process dies before the run's entry
        with pytest.raises(Stopped):
            dismiss_flag(db, flag_id, "mia", "A fast reader.")
    assert get_flag(db, flag_id).status == "dismissed" and _events(db, run.id) == []
    with pytest.raises(FlagDismissed):
        dismiss_flag(db, flag_id, "max", "")  # a retry finishes the first dismissal, as the flag records it
    [entry] = _events(db, run.id)
    assert entry["event"] == "flag_dismissed" and entry["actor"] == {"kind": "moderator", "name": "mia"}
    assert entry["detail"] == {"flag": flag_id, "reason": FAST_MOVES}
    assert not log_dismissal(db, get_flag(db, flag_id))  # once only
    assert len(_events(db, run.id)) == 1


def test_a_filing_stopped_before_its_run_s_entry_leaves_an_open_dispute_whose_entry_is_written_once(
        db, monkeypatch):
    run = _stored_run(db, 2)
    with monkeypatch.context() as stop:
        stopping(db, stop, "script")  # the dispute filed; the process dies before the run's entry
        with pytest.raises(Stopped):
            file_dispute(db, run.id, "Dee", "It was fair.")
    total, [dispute] = list_disputes(db, OPEN, 0, 10)
    assert total == 1 and dispute["run_id"] == run.id and _events(db, run.id) == []
    assert log_filing(db, dispute["id"]) and not log_filing(db, dispute["id"])
    [entry] = _events(db, run.id)
    assert entry["event"] == "disputed" and entry["detail"] == {"dispute_id": dispute["id"], "reason": "It was fair."}


def test_a_dispute_filed_whole_has_its_run_s_entry(db):
    run = _stored_run(db, 3)
    dispute = file_dispute(db, run.id, "Dee", "Look again.")
    assert [entry["event"] for entry in _events(db, run.id)] == ["disputed"]
    assert not log_filing(db, dispute["id"])
