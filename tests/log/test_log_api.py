"""The public log over HTTP (``/v1/log``): every proof it returns checked by RFC 9162's own verification
(``tests.log.rfc9162``), every checkpoint's signature by the published key with ``cryptography`` alone."""

import base64
import hashlib
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.daily_seed import today
from service.app import create_app
from settings import Settings
from store.log import pseudonyms, publish, resume_log
from store.log.leaves import MOVED, SIZE
from tests.log import rfc9162
from tests.log.conftest import ORIGIN
from tests.support.games import accept_dealt, legal_games, moderator_token


def _checkpoint(stack) -> tuple[int, bytes]:
    """The newest checkpoint's size and root, once its signature checks under the key /v1/log/key publishes:
    checked here from the note's bytes, as any client would."""
    key = stack.get("/v1/log/key")
    assert key.status_code == 200 and key.headers["Content-Type"].startswith("text/plain")
    name, key_id, encoded = key.text.strip().split("+", 2)
    public = base64.b64decode(encoded)[1:]
    assert bytes.fromhex(key_id) == hashlib.sha256(name.encode() + b"\n\x01" + public).digest()[:4]
    note = stack.get("/v1/log/checkpoint")
    assert note.status_code == 200 and "public" in note.headers["Cache-Control"]
    body, signatures = note.text.split("\n\n")
    origin, size, root = body.split("\n")
    signed = base64.b64decode(signatures.split(" ")[2])
    assert origin == name == ORIGIN and signed[:4] == bytes.fromhex(key_id)
    Ed25519PublicKey.from_public_bytes(public).verify(signed[4:], (body + "\n").encode())  # raises if forged
    return int(size), base64.b64decode(root)


def _verified(stack, games) -> list[str]:
    _, token = stack.register()
    run_ids = [stack.submit(token, game).json()["id"] for game in games]
    for run_id in run_ids:
        assert stack.wait_final(run_id)["status"] == "verified"
    return run_ids


def _leaves(stack, size: int) -> list[bytes]:
    entries = stack.get(f"/v1/log/entries?start=0&end={size}").json()["entries"]
    assert [entry["index"] for entry in entries] == list(range(size))
    for entry in entries:
        assert base64.b64decode(entry["leaf_hash"]) == rfc9162.leaf_hash(entry["leaf"].encode())
    return [entry["leaf"].encode() for entry in entries]


def _check_inclusions(stack, run_ids: list[str], size: int, root: bytes) -> None:
    for run_id in run_ids:
        logged = stack.get(f"/v1/runs/{run_id}").json()["log"]
        proof = stack.get(f"/v1/log/proof/inclusion?run={run_id}&size={size}").json()
        assert proof["index"] == logged["index"] and proof["tree_size"] == size
        leaf = base64.b64decode(logged["leaf_hash"])
        hashes = [base64.b64decode(h) for h in proof["hashes"]]
        assert rfc9162.verify_inclusion(proof["index"], size, leaf, hashes, root), run_id
        by_hash = stack.get("/v1/log/proof/inclusion", params={"leaf": logged["leaf_hash"], "size": size}).json()
        assert by_hash["index"] == proof["index"] and by_hash["hashes"] == proof["hashes"]


def test_every_verdict_is_a_leaf_proven_under_a_signed_checkpoint(stack, db, signer):
    run_ids = _verified(stack, legal_games(7))
    assert stack.get("/v1/log/checkpoint").status_code == 404  # nothing signed yet
    signed = publish(db, signer).size
    size, root = _checkpoint(stack)
    leaves = _leaves(stack, size)
    assert size == signed and rfc9162.mth(leaves) == root
    verdicts = [json.loads(leaf) for leaf in leaves if b'"kind":"verdict"' in leaf]
    assert sorted(leaf["run"] for leaf in verdicts) == sorted(run_ids)  # besides: yesterday's sealed seed revealed
    _check_inclusions(stack, run_ids, size, root)


def test_a_leaf_names_the_run_its_verdict_and_a_pseudonym_never_the_player(stack, db, signer):
    name, token = stack.register()
    game = legal_games(8)[7]
    run_id = stack.submit(token, game).json()["id"]
    stack.wait_final(run_id)
    assert "log" not in stack.get(f"/v1/runs/{run_id}").json()  # not in the archive's log yet
    publish(db, signer)
    run = stack.get(f"/v1/runs/{run_id}").json()
    index = run["log"]["index"]
    [entry] = stack.get(f"/v1/log/entries?start={index}&end={index + 1}").json()["entries"]
    leaf = entry["leaf"]
    assert name not in leaf and token not in leaf
    assert f'"run":"{run_id}"' in leaf and f'"score":{run["score"]}' in leaf and '"kind":"verdict"' in leaf
    assert f'"player":"{pseudonyms(db, [name])[name]}"' in leaf
    assert hashlib.sha256(b'["' + '","'.join(game["moves"]).encode() + b'"]').hexdigest() in leaf


def test_checkpoints_before_and_after_a_restart_are_consistent(stack, db, signer):
    """Before and after the processes restart, and Redis with them, losing what it held of the log."""
    first, first_root = _checkpoint(stack)
    db.redis.delete(SIZE, MOVED)  # Redis restarted without persistence: the log's state is gone, not its archive
    restarted = create_app(Settings.from_env())  # the API and the worker as new processes make them
    fresh = stack.database()
    assert resume_log(fresh) == first  # the worker's first step
    _verified(stack, legal_games(12)[8:])
    publish(fresh, signer)
    fresh.close()
    second, second_root = _checkpoint(stack)
    assert second == first + 4
    leaves = _leaves(stack, second)
    for m in range(1, second):
        proof = restarted.test_client().get(f"/v1/log/proof/consistency?first={m}&second={second}").get_json()
        hashes = [base64.b64decode(h) for h in proof["hashes"]]
        assert rfc9162.verify_consistency(m, second, rfc9162.mth(leaves[:m]), second_root, hashes), m
    assert rfc9162.mth(leaves[:first]) == first_root
    restarted.extensions["referee"].db.close()


@pytest.mark.parametrize("query, field", [
    ("/v1/log/proof/inclusion?run=nope&size=100000", "size"),
    ("/v1/log/proof/inclusion?size=1", "run"),
    ("/v1/log/proof/inclusion?run=&size=1", "run"),  # no run: never a player's or a seed's leaf
    ("/v1/log/proof/inclusion?leaf=***&size=1", "leaf"),
    ("/v1/log/proof/inclusion?leaf=%F2%A6%AF%9B&size=100000", "leaf"),  # not ASCII: not base64 either
    ("/v1/log/proof/consistency?first=3&second=2", "second"),
    ("/v1/log/proof/consistency?first=1&second=100000", "second"),  # a tree the log has not grown to
    ("/v1/log/proof/consistency?first=100000&second=100000", "second"),
    ("/v1/log/entries?start=x&end=2", "start"),
    ("/v1/runs", "ids"),
    ("/v1/runs?ids=", "ids"),
    (f"/v1/runs?ids={','.join(['0' * 16] * 101)}", "ids"),  # a hundred at most
])
def test_a_bad_query_is_a_422_naming_its_field(stack, query, field):
    response = stack.get(query)
    assert response.status_code == 422
    assert field in str(response.json()["errors"])


def test_runs_read_by_the_hundred_answer_as_each_players_runs_do_a_sealed_ones_seed_hidden(stack):
    """``GET /v1/runs?ids=``, which ``scoundrel log export`` reads the log's runs with: the runs found, in the
    order asked, an unknown id left out, each as its player's runs show it (a sealed daily run's seed and moves
    hidden while its day is on, shown to a moderator)."""
    name, token = stack.register()
    played = [stack.wait_final(stack.submit(token, game).json()["id"]) for game in legal_games(16)[14:]]
    sealed = accept_dealt(stack, name, legal_games(17)[16], challenge="daily", date=today().isoformat())
    asked = [sealed["id"], "0" * 16, *(run["id"] for run in reversed(played))]
    listed = {run["id"]: run for run in stack.get(f"/v1/players/{name}/runs").json()["runs"]}
    assert listed[sealed["id"]]["seed"] is None and listed[sealed["id"]]["moves"] is None
    found = stack.get(f"/v1/runs?ids={','.join(asked)}")
    assert found.status_code == 200
    assert found.json()["runs"] == [listed[run_id] for run_id in asked if run_id in listed]
    moderator = {"Authorization": f"Bearer {moderator_token(stack)}"}
    [shown] = stack.get(f"/v1/runs?ids={sealed['id']}", headers=moderator).json()["runs"]
    assert (shown["seed"], shown["moves"]) == (legal_games(17)[16]["seed"], legal_games(17)[16]["moves"])


def test_a_run_in_the_log_proven_in_a_tree_it_has_not_grown_to_is_a_422_naming_size(stack, db, signer):
    [run_id] = _verified(stack, legal_games(14)[13:])
    size = publish(db, signer).size
    response = stack.get(f"/v1/log/proof/inclusion?run={run_id}&size={size + 10}")
    assert response.status_code == 422 and "size" in response.json()["errors"]


def test_a_run_with_no_leaf_in_the_tree_is_a_404(stack):
    assert stack.get("/v1/log/proof/inclusion?run=nope&size=1").status_code == 404


def test_an_erased_players_pseudonym_can_no_longer_be_tied_to_a_name(stack, db, signer):
    import hmac

    from store.log.leaves import SECRETS

    name, token = stack.register()
    run_id = stack.submit(token, legal_games(13)[12]).json()["id"]
    stack.wait_final(run_id)
    publish(db, signer)
    before, before_root = _checkpoint(stack)
    logged = stack.get(f"/v1/runs/{run_id}").json()["log"]
    pseudonym = pseudonyms(db, [name])[name]
    erased = stack.http.delete(stack.url(f"/v1/players/{name}"), headers={"Authorization": f"Bearer {token}"})
    assert erased.status_code in (200, 202, 204), erased.text
    publish(db, signer)
    size, root = _checkpoint(stack)
    leaves = _leaves(stack, size)
    assert leaves[logged["index"]] == _leaves(stack, before)[logged["index"]]  # the log is never rewritten
    assert f'"player":"{pseudonym}"'.encode() in leaves[logged["index"]]
    erasure = json.loads(leaves[-1])  # the erasure's leaf: the pseudonym's runs left the boards
    assert (erasure["kind"], erasure["player"], erasure["index"], sorted(erasure)) == (
        "erase", pseudonym, size - 1, ["index", "kind", "player", "time"])
    consistency = stack.get(f"/v1/log/proof/consistency?first={before}&second={size}").json()["hashes"]
    assert rfc9162.verify_consistency(before, size, before_root, root, [base64.b64decode(h) for h in consistency])
    proof = stack.get("/v1/log/proof/inclusion", params={"leaf": base64.b64encode(rfc9162.leaf_hash(
        leaves[-1])).decode(), "size": size}).json()
    assert rfc9162.verify_inclusion(size - 1, size, rfc9162.leaf_hash(leaves[-1]),
                                    [base64.b64decode(h) for h in proof["hashes"]], root)
    assert not db.redis.hexists(SECRETS, name)
    for secret in db.redis.hvals(SECRETS):  # no secret kept reproduces it, for that name or any other
        for other in [name, *db.redis.hkeys(SECRETS)]:
            assert hmac.new(bytes.fromhex(secret), other.encode(), "sha256").hexdigest()[:32] != pseudonym
