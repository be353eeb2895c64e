"""``keys.cluster_home``: every one-Redis key finds its name on a cluster, as the key functions give it."""

import inspect

import pytest

from store import keys, shards
from store.keys import Home
from store.shards import Layout

# every key function, with arguments: (function, args)
CALLS = [
    (keys.player, ("Ada",)), (keys.player_name, ("Ada",)), (keys.old_player_names_indexed, ()),
    (keys.token, ("f00d",)), (keys.run, ("r-1",)), (keys.player_runs, ("Ada",)), (keys.following, ("Ada",)),
    (keys.submission, ("Ada", "fp")), (keys.idempotency, ("Ada", "k:with:colons")),
    (keys.closed, ("season",)), (keys.seasons_began, ()), (keys.board, ("classic",)),
    (keys.board_runs, ("classic",)), (keys.daily_board, ("2026-12-01",)), (keys.daily_runs, ("2026-12-01",)),
    (keys.dealt_board, ("classic",)), (keys.dealt_runs, ("classic",)), (keys.sealed_board, ("2026-12-01",)),
    (keys.sealed_runs, ("2026-12-01",)), (keys.seed_board, ("classic", "s33d")),
    (keys.seed_runs, ("classic", "s33d")), (keys.ladder, ("classic",)), (keys.ladder_window, ("classic", "Ada")),
    (keys.ladder_games, ("classic",)), (keys.daily_secret, ()), (keys.moderator, ("Mo",)),
    (keys.moderator_name, ("Mo",)), (keys.old_moderator_names_indexed, ()), (keys.moderator_token, ("beef",)),
    (keys.moderators, ()), (keys.sweep_lock, ()), (keys.metrics, ()),
    (keys.old_run_index, ()), (keys.old_audit_stream, ("r-1",)), (keys.dispute, ("d1",)),
    (keys.disputes, ("open",)), (keys.game, ("2aabbcc",)), (keys.sealed_game, ("2026-12-01", "Ada")),
    (keys.player_games_playing, ("Ada",)), (keys.next_deal, ("Ada",)), (keys.streak, ("Ada",)),
    (keys.sealed_closed, ()), (keys.sealed_secret, ()), (keys.service_mark, ()),
    (keys.board_archive_lock, ()), (keys.archive_lock, ()), (keys.flag, ("f1",)), (keys.flags, ("r", "open")),
    (keys.run_flags, ("r-1",)), (keys.flag_address, ("2026-12-01", "ab")), (keys.address_secret, ()),
    (keys.webhook, ("h1",)), (keys.webhooks, ()), (keys.webhook_deliveries, ("h1",)), (keys.webhook_outbox, ()),
    (keys.webhook_outbox_lock, ()), (keys.webhook_release_lock, ()), (keys.webhook_drain_queued, ()),
    (keys.moved_from, ()), (keys.board_places, ("dealt", ("classic",))), (keys.board_holders, ("seed", ("a", "b"))),
    (keys.board_window, ("ladder", ("classic",), "Ada")), (keys.board_games, ("ladder", ("classic",))),
    (keys.board_versions, ("seed", ("a", "b"))), (keys.board_placed, ("ladder", ("classic",))),
    (keys.intake_doorbell, ()),
]
# per-shard indexes: (function, args before the shard)
PER_SHARD = [keys.pending_runs, keys.intake, keys.archived_filter, keys.archived_filter_whole, keys.latency,
             keys.move_latency, keys.run_players, keys.games_playing, keys.games_ending, keys.webhooks_registered,
             keys.placing, keys.replacing]
# not moved: the write probe expires seconds after a writer wrote it (and the writers are stopped)
NOT_KEYS = {"write_probe", "use_layout", "layout", "distinct_shards", "every", "board_shard", "rate_limit_prefix",
            "untagged", "any_tag", "family", "player_of_runs", "board_of_key", "board_and_player_of_window",
            "cluster_home"}


@pytest.fixture
def layout():
    def named(layout: Layout, function, *args):
        keys.use_layout(layout)
        try:
            return function(*args)
        finally:
            keys.use_layout(Layout.SINGLE)
    return named


def test_every_key_function_is_called_here():
    functions = {name for name, value in inspect.getmembers(keys, inspect.isfunction)
                 if value.__module__ == keys.__name__ and not name.startswith("_")}
    called = {function.__name__ for function, _ in CALLS} | {function.__name__ for function in PER_SHARD}
    assert functions - NOT_KEYS - called == {"sealed_playing"}  # below: it takes its date before its shard


@pytest.mark.parametrize(("function", "args"), CALLS, ids=lambda value: getattr(value, "__name__", ""))
def test_an_owned_or_service_key_keeps_its_name_under_its_shard_tag(layout, function, args):
    home = keys.cluster_home(layout(Layout.SINGLE, function, *args))
    assert home is not None
    if home.how is Home.EVERY:
        assert layout(Layout.CLUSTER, function, *args) in home.targets()
    elif home.how is not Home.TRANSIENT:
        assert home.targets() == [layout(Layout.CLUSTER, function, *args)]


@pytest.mark.parametrize("function", PER_SHARD, ids=lambda value: value.__name__)
def test_a_per_shard_index_goes_to_every_shard_or_is_split(layout, function):
    home = keys.cluster_home(layout(Layout.SINGLE, function, 0))
    assert home is not None and home.how in (Home.SPLIT, Home.EVERY, Home.FIRST, Home.REBUILT)
    if home.how is Home.SPLIT:
        assert home.key(5) == layout(Layout.CLUSTER, function, 5)
    elif home.how is not Home.REBUILT:
        assert layout(Layout.CLUSTER, function, 0) in home.targets()


def test_the_sealed_games_in_play_are_split_by_game():
    home = keys.cluster_home(keys.sealed_playing("2026-12-01", 0))
    assert home is not None and home.how is Home.SPLIT and home.member_shard is not None
    assert home.member_shard("2aabbcc") == shards.of_game("2aabbcc")
    keys.use_layout(Layout.CLUSTER)
    try:
        assert home.key(7) == keys.sealed_playing("2026-12-01", 7)
    finally:
        keys.use_layout(Layout.SINGLE)


def test_the_write_probe_is_not_moved():
    home = keys.cluster_home("{scoundrel}:write-probe")
    assert home is not None and home.how is Home.TRANSIENT and home.targets() == []


def test_rq_and_strangers_keys_are_not_the_services():
    assert keys.cluster_home("rq:queue:verify") is None
    assert keys.cluster_home("someone:else") is None
    assert keys.cluster_home("{scoundrel}:no-such-family:x") is None


def test_parsing_is_the_same_in_either_layout(layout):
    for which in (Layout.SINGLE, Layout.CLUSTER):
        assert keys.player_of_runs(layout(which, keys.player_runs, "Ada")) == "Ada"
        assert keys.board_of_key(layout(which, keys.board_places, "seed", ("a", "b")), 2) == ("a", "b")
        assert keys.board_and_player_of_window(layout(which, keys.ladder_window, "classic", "Ada"), 1) == (
            ("classic",), "Ada")
