"""The desk's sessions and cases in the store (``store.desk``): kept under the session id's hash, idle time
renewed by each read, ended by a revoked or replaced moderator token; a case taken and released by its taker."""

import hashlib
import time

from store import create_moderator, revoke_moderator
from store.accounts import hash_token
from store.base import keys
from store.desk import CASE_HELD, TOKEN, cases_taken, end_session, open_session, release_case, session_of, take_case

HOUR = 3_600_000


def test_a_session_is_kept_under_its_ids_hash_and_its_idle_time_renews(store_db):
    token = create_moderator(store_db, "sam")
    session_id, session = open_session(store_db, "sam", TOKEN, hash_token(token), HOUR)
    key = keys.desk_session(hashlib.sha256(session_id.encode()).hexdigest())
    assert not store_db.redis.exists(keys.desk_session(session_id))  # the id itself is never a key
    assert 0 < store_db.redis.pttl(key) <= HOUR
    assert token not in str(store_db.redis.hgetall(key)) and session_id not in str(store_db.redis.hgetall(key))
    assert session_of(store_db, session_id, 8 * HOUR) == session
    assert store_db.redis.pttl(key) > HOUR  # the read began its idle time again, the setting's
    store_db.redis.pexpire(key, 1)
    deadline = time.monotonic() + 10
    while store_db.redis.exists(key):  # Redis ends an idle session by itself
        assert time.monotonic() < deadline, "the session outlived its expiry"
    assert session_of(store_db, session_id, HOUR) is None


def test_a_revoked_moderators_session_ends_at_its_next_read(store_db):
    token = create_moderator(store_db, "tia")
    session_id, _ = open_session(store_db, "tia", TOKEN, hash_token(token), HOUR)
    revoke_moderator(store_db, "tia")
    assert session_of(store_db, session_id, HOUR) is None
    create_moderator(store_db, "tia")  # the name again, with another token
    assert session_of(store_db, session_id, HOUR) is None


def test_signing_out_ends_the_session(store_db):
    token = create_moderator(store_db, "una")
    session_id, _ = open_session(store_db, "una", TOKEN, hash_token(token), HOUR)
    end_session(store_db, session_id)
    assert session_of(store_db, session_id, HOUR) is None


def test_a_case_is_released_by_its_taker_alone_and_by_itself(store_db):
    taken = take_case(store_db, "run-1", "mia")
    assert cases_taken(store_db, ["run-1", "run-2"]) == {"run-1": taken}
    assert 0 < store_db.redis.pttl(keys.desk_case("run-1")) <= CASE_HELD
    release_case(store_db, "run-1", "ned")  # another moderator's action leaves it taken
    assert cases_taken(store_db, ["run-1"]) == {"run-1": taken}
    release_case(store_db, "run-1", "mia")
    assert cases_taken(store_db, ["run-1"]) == {}
