"""Issue 44, item 7: what the API answers is what its OpenAPI document allows. Every refusal
(``service.errors.ANSWERS``) answers in the documented error shape, the 409 of a resting name (with its
``reason`` and ``available_at``) included; and ``OPTIONS`` lists the methods a path documents, no other
(``/v1/players/me`` listed the DELETE of ``/v1/players/<name>``). Through Flask's test client."""

import jsonschema_rs
import pytest

from domain import errors
from domain.rewards import AlreadyClaimed, NoSuchReward
from domain.schedules import NoSuchSchedule
from domain.tournaments import NoSuchTournament, TournamentRefusal
from service.app import create_app
from service.errors import ANSWERS
from settings import Settings
from tests.support.stores import emptied_database

# One refusal of each kind the API answers, as the store or the dealer raises it.
REFUSALS = (
    errors.NoSuchRun("r1"), errors.NoSuchDispute("d1"), errors.NoSuchGame("g1"), errors.NoSuchFlag("f1"),
    errors.NoSuchWebhook("w1"), errors.GameMoved(3), errors.GameOver("won"), errors.SealedDailyStarted("g1"),
    errors.SealedDayOver("2026-01-01"), errors.GameInPlay("g1", "classic"), NoSuchTournament("t1"),
    TournamentRefusal("full", "g1"), errors.DealTaken(), errors.NameResting("ada", 1_790_000_000_000),
    errors.NameTaken("ada"), errors.AccountBusy(), errors.RunPending(), errors.NotVoid(), errors.AlreadyVoid(),
    errors.NotInError(), errors.NoSuchDelivery("w1", "e1"), errors.DeliveryNotKept(),
    errors.AlreadyResolved(), errors.FlagDismissed(), errors.FollowingFull(500), errors.IdempotencyConflict(),
    errors.MovesRefused({"move_index": 2, "code": "illegal_move", "message": "No such card (R5).", "ruling": "R5"}),
    NoSuchSchedule("s1"), NoSuchReward("tournament-1"), AlreadyClaimed("tournament-1"),
    errors.PlayerBanned(1_790_000_000_000), errors.NotSanctioned("ada", "banned"), errors.NameNotAllowed("ada"),
    errors.NoSuchReport("r1"), errors.ReportOpen("r1"), errors.ReportClosed(), errors.ReportsLimited(10, 1),
)


@pytest.fixture(scope="module")
def app(redis_url, tmp_path_factory):
    """The API on this test process's Redis, emptied, and an archive of its own."""
    archive = tmp_path_factory.mktemp("archive") / "archive.sqlite3"
    settings = Settings(redis_url=redis_url, archive_url=f"sqlite:///{archive}")
    with emptied_database(redis_url, archive_url=settings.archive_url) as database:
        database.archive.upgrade()
    return create_app(settings)


@pytest.fixture(scope="module")
def spec(app) -> dict:
    return app.test_client().get("/v1/openapi.json").get_json()


def documented(spec: dict, schema: dict) -> jsonschema_rs.Validator:
    """A validator of ``schema`` as the document gives it (its references into the document's components)."""
    return jsonschema_rs.Draft4Validator({**schema, "components": spec["components"]})


def answer_schema(spec: dict, path: str, method: str, status: int) -> dict:
    return spec["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]


def test_every_refusal_answers_in_the_documented_error_shape(app, spec):
    assert {type(refusal) for refusal in REFUSALS} == set(ANSWERS)  # a refusal added is a refusal tried here
    error_shape = documented(spec, {"$ref": "#/components/schemas/Error"})
    for refusal in REFUSALS:
        with app.test_request_context("/v1/runs"):
            answer = app.make_response(app.handle_user_exception(refusal))
        body = answer.get_json()
        assert answer.status_code == ANSWERS[type(refusal)].status and body["message"]
        assert not list(error_shape.iter_errors(body)), (type(refusal).__name__, body)


def test_the_409_of_a_resting_name_is_an_answer_its_schema_allows(app, spec):
    client = app.test_client()
    token = client.post("/v1/players", json={"name": "resting"}).get_json()["token"]
    assert client.delete("/v1/players/resting", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    answer = client.post("/v1/players", json={"name": "resting"})
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["reason"] == "name_resting" and body["available_at"]
    schema = documented(spec, answer_schema(spec, "/v1/players", "post", 409))
    assert not list(schema.iter_errors(body)), body


def test_options_lists_the_methods_a_path_documents_and_no_other(app, spec):
    client = app.test_client()
    paths = [path for path in spec["paths"] if "{" not in path]
    assert "/v1/players/me" in paths
    for path in paths:
        methods = {method.upper() for method in spec["paths"][path] if method != "parameters"}
        allowed = set(client.options(path).headers["Allow"].split(", ")) - {"OPTIONS", "HEAD"}
        assert allowed == methods, path
    assert client.delete("/v1/players/me").status_code == 405  # "me" names no player whose erasure it would be
