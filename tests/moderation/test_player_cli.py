"""``scoundrel player``: the moderators' sanctions from the command line, with one-line refusals."""

import pytest

from tests.support.commands import run_command
from tests.support.games import legal_games


@pytest.fixture(scope="module")
def ada(stack):
    _, token = stack.register("ada")
    stack.wait_final(stack.submit(token, legal_games(1)[0]).json()["id"])
    return token


def scoundrel(stack, *args: str):
    return run_command(stack.env(), "player", *args)


def on_board(stack) -> bool:
    return stack.get("/v1/leaderboards/classic/players/ada").status_code == 200


def test_the_command_line_bans_hides_and_lifts_each_in_the_log(stack, moderator, ada):
    banned = scoundrel(stack, "ban", "ADA", "--reason", "cheating", "--until", "2099-01-01T00:00:00+00:00",
                       "--moderator", "olga")
    assert banned.returncode == 0, banned.stderr
    assert banned.stdout.strip().endswith("ada: banned by olga (cheating) until 2099-01-01T00:00:00.000Z; not hidden")
    assert not on_board(stack)
    assert stack.submit(ada, legal_games(2)[1]).json()["reason"] == "banned"
    assert scoundrel(stack, "hide", "ada", "--reason", "bot?").returncode == 0
    assert scoundrel(stack, "unban", "ada").returncode == 0
    assert not on_board(stack)  # hidden still
    shown = scoundrel(stack, "show", "ada")
    assert shown.stdout.strip().endswith("ada: not banned; hidden by operator (bot?)")
    assert scoundrel(stack, "unhide", "ada").returncode == 0
    assert on_board(stack)
    log = stack.get("/v1/moderation-log", headers={"Authorization": f"Bearer {moderator}"}).json()
    assert [(entry["action"], entry["moderator"]) for entry in log["entries"]] == [
        ("unhide", "operator"), ("unban", "operator"), ("hide", "operator"), ("ban", "olga")]


@pytest.mark.parametrize(("args", "said", "status"), [
    (("unban", "ada"), "scoundrel player: 'ada' is not banned.", 1),
    (("ban", "nobody", "--reason", "x"), "scoundrel player: no player named 'nobody'", 1),
    (("ban", "ada", "--reason", "x", "--until", "2001-01-01T00:00:00Z"), "is not in the future", 2),
    (("ban", "ada", "--reason", "x", "--until", "tomorrow"), "is not an ISO 8601 time", 2),
    (("ban", "ada"), "the following arguments are required: --reason", 2),
])
def test_a_refusal_is_one_line_and_a_non_zero_status(stack, ada, args, said, status):
    refused = scoundrel(stack, *args)
    assert refused.returncode == status and "Traceback" not in refused.stderr
    assert said in refused.stderr.strip().splitlines()[-1]
