"""The previous release's layouts, as ``scoundrel migrate`` and ``scoundrel move-off-cluster`` read them.

That release wrote each change as a series of steps of one shard each (the
data spread over 64 shards), fenced and finished by a sweeper. It left its
stores in one of two layouts:

- On one Redis, today's key names, plus the keys of its steps: a version
  hash and a set of placed runs per board (``<kind>-versions``,
  ``<kind>-placed``), the runs whose board places were still owed after
  their verdict (``placing``) or after a void, restore or re-verification
  (``replacing``), a mark that a webhook was registered, the dispatchers'
  doorbell and the record of a move into a cluster. Today's store reads
  none of them; ``store.operations.migration`` finishes the places owed and
  deletes them.
- On a Redis Cluster, every key under a hash tag: ``{s<shard>.<n>}`` for a
  shard's keys, ``{scoundrel}`` for the service's own, followed by the same
  ``<family>:<parts>`` as on one Redis. ``Home`` says how each family was
  kept there, so ``store.operations.move_off_cluster`` knows how to bring
  each back into the one key of today's name.

This module is the one place that knows those layouts; nothing else parses
a tag or names a retired key.
"""

import re
from enum import Enum

from domain.boards import BOARDS
from store.base import keys

_TAGGED = re.compile(r"\{(?:scoundrel|s\d+\.\d+)\}:(.+)", re.DOTALL)


class Home(Enum):
    """How the previous release kept a family of key on a cluster, so how it comes back to one Redis."""

    SAME = "same"  # the service's own, under ``{scoundrel}``: copied whole
    OWNER = "owner"  # one owner's (a player, run, token, game, board), under its shard's tag: copied whole
    SPLIT = "split"  # an index kept once per shard, each member in one shard's: merged member by member
    EVERY = "every"  # a copy in every shard and the service's (closed seasons and days): unioned
    FIRST = "first"  # counts kept once per shard (and the service's), summed by their readers: summed
    REBUILT = "rebuilt"  # not copied: rebuilt from the archive as the service starts (the archived-runs filter)
    TRANSIENT = "transient"  # not copied: the write probe and the rate-limit counters (expiring in seconds), the
    # desk's sessions and cases (a moderator signs in again)
    RETIRED = "retired"  # not copied: the steps' fences and marks, which today's store never reads


def untagged(key: str) -> str | None:
    """A key of the previous release without its hash tag (``{s3.17}:run:x`` → ``run:x``, and
    ``{scoundrel}:run:x`` → ``run:x``), or None for a key that is not the service's."""
    tagged = _TAGGED.fullmatch(key)
    return tagged.group(1) if tagged else None


def family(name: str) -> str:
    """The kind of an untagged key: the word before its parts (``run``, ``player-runs``, ``dealt-board``)."""
    return name.split(":", 1)[0]


def one_redis_key(name: str) -> str:
    """The one-Redis key (today's name) of an untagged key."""
    return f"{keys.PREFIX}:{name}"


def _family_of(key: str) -> str:
    return family(key.removeprefix(keys.PREFIX + ":"))


def placing() -> str:
    """Sorted set: runs whose verdict was written and whose board places may still be owed → when (ms)."""
    return one_redis_key("placing")


def replacing() -> str:
    """Sorted set: runs voided, restored or re-verified whose player's places may still be owed → when (ms)."""
    return one_redis_key("replacing")


def games_ending() -> str:
    """Sorted set: ended dealt games whose run may not have been accepted yet → when they ended (ms)."""
    return one_redis_key("games-ending")


def step_marks() -> tuple[str, ...]:
    """The steps' keys of the service as a whole: the mark that a webhook is registered, the
    dispatchers' doorbell, the record of a move into a cluster."""
    return tuple(one_redis_key(name) for name in _MARKS)


FENCE_PATTERN = one_redis_key("*-[vp][el]*:*")  # a SCAN pattern finding the boards' fences (``is_fence``)
_FENCES = frozenset(f"{board.kind}-{what}" for board in BOARDS for what in ("versions", "placed"))
_MARKS = ("webhooks-registered", "intake-doorbell", "moved-from")


def is_fence(key: str) -> bool:
    """Whether a one-Redis key is a board's version hash or set of placed runs."""
    return key.startswith(keys.PREFIX + ":") and _family_of(key) in _FENCES


def is_version_hash(key: str) -> bool:
    """Whether a board's fence (``is_fence``) is its version hash, not its set of placed runs."""
    return _family_of(key).endswith("-versions")


_BOARD_FAMILIES = frozenset(_family_of(key_of(board.kind, ("_",))) for board in BOARDS
                            for key_of in (keys.board_places, keys.board_holders, keys.board_games)) | frozenset(
    _family_of(keys.board_window(board.kind, ("_",), "_")) for board in BOARDS)
_HOMES: dict[str, Home] = {
    **{_family_of(key): Home.SAME for key in (
        keys.old_player_names_indexed(), keys.seasons_began(), keys.daily_secret(), keys.moderator("_"),
        keys.moderator_name("_"), keys.old_moderator_names_indexed(), keys.moderator_token("_"), keys.moderators(),
        keys.sweep_lock(), keys.old_run_index(), keys.dispute("_"), keys.disputes("_"), keys.service_mark(),
        keys.board_archive_lock(), keys.archive_lock(), keys.flag("_"), keys.flags(), keys.run_flags("_"),
        keys.flag_address("_", "_"), keys.address_secret(), keys.webhook("_"), keys.webhooks(),
        keys.webhook_deliveries("_"), keys.webhook_outbox_lock(), keys.webhook_release_lock(),
        keys.webhook_drain_queued(), keys.sealed_secret(),
        # written first by this release (never on a cluster): copied whole should a store hold them already
        keys.par("_", "_"), keys.par_search("_", "_"), keys.league_members("_"), keys.league_open("_"),
        keys.league_cohorts("_"), keys.league_tiers("_"), keys.league_cohort("_", "_"), keys.league_history("_"),
        keys.tournament_ids(), keys.tournament("_"), keys.tournaments_starting(), keys.tournaments_ending(),
        keys.tournaments_started(), keys.tournaments_closed(), keys.tournaments_ended(),
        keys.tournament_entrants("_"), keys.tournament_attempts("_"), keys.tournament_playing("_"),
        keys.server_key("_"), keys.server_key_name("_"), keys.server_key_token("_"), keys.server_keys(),
        keys.external_link("_", "_"), keys.player_links("_"), keys.clairvoyance_tallies("_"), keys.pseudonyms(),
        keys.erasures_begun(), keys.erasure_log(), keys.erased_name("_"), keys.erased_name_secret(),
        keys.pending_jobs(), keys.live_events("_"), keys.live_ticket("_"), keys.live_told(), keys.live_zones("_"),
        keys.schedule_ids(), keys.schedule("_"), keys.schedules(), keys.inbox("_"), keys.rewards_granted("_"),
        keys.rewards_flagged(), keys.settled(), keys.rewards_unsettled(), keys.league_week_told("_"), keys.old_bans(),
        keys.hidden_players(), keys.moderation_log(), keys.report("_"), keys.reports("_"), keys.reports_filed("_"),
        keys.open_report("_", "_"), keys.log_size(), keys.renamed_players(), keys.renames_begun(),
        keys.errored_runs(), keys.ban("_"), keys.banned())},
    **{_family_of(key): Home.OWNER for key in (
        keys.player("_"), keys.player_name("_"), keys.player_runs("_"), keys.following("_"),
        keys.submission("_", "_"), keys.idempotency("_", "_"), keys.sealed_game("_", "_"),
        keys.player_games_playing("_"), keys.next_deal("_"), keys.streak("_"), keys.token("_"), keys.run("_"),
        keys.old_audit_stream("_"), keys.game("_"))},
    **dict.fromkeys(_BOARD_FAMILIES, Home.OWNER),
    **{_family_of(key): Home.SPLIT for key in (
        keys.pending_runs(), keys.intake(), keys.run_players(), keys.games_playing(), games_ending(),
        keys.sealed_playing("_"), keys.webhook_outbox(), placing(), replacing())},
    **{_family_of(key): Home.EVERY for key in (keys.closed("_"), keys.sealed_closed())},
    **{_family_of(key): Home.FIRST for key in (keys.latency(), keys.move_latency(), keys.metrics())},
    **{_family_of(key): Home.REBUILT for key in (keys.archived_filter(), keys.old_archived_filter_whole())},
    **{_family_of(key): Home.TRANSIENT for key in (keys.write_probe(), keys.desk_session("_"), keys.desk_case("_"))},
    **dict.fromkeys(_FENCES | frozenset(_MARKS), Home.RETIRED),
}


def home(key: str) -> Home | None:
    """How the previous release kept ``key`` (tagged, as on a cluster, or a one-Redis key), or None for a
    key that is not the service's (RQ's, another program's) or of no family it wrote.

    A rate-limit counter's name holds the service's prefix after the limiter's own
    (``keys.rate_limit_prefix``): transient.
    """
    name = untagged(key)
    if name is None:
        return Home.TRANSIENT if keys.rate_limit_prefix() + "/" in key else None
    return _HOMES.get(family(name))
