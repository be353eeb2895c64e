"""Every Redis key name of the service; nothing else spells a key.

Each key carries the hash tag of the shard it belongs to (``store.shards``):
a player's keys their name's, a run's its id's, a game's its player's (its
id says which), a board's its own. The keys of the service as a whole (its
secrets, locks, moderators, webhooks, closed seasons) carry ``{scoundrel}``.
An index that every owner writes (pending runs, intake, counters, outbox)
has one key per shard, named by the ``shard`` it takes; ``every`` lists them
all for its readers. On one Redis every tag is ``{scoundrel}``: one key per
index, the names they have always had. RQ's own queue keys are RQ's
business, on the queue's Redis. The Lua scripts that change several keys
atomically live in ``store/lua``, each called through its wrapper in
``store.scripts``; a script touches the keys of one shard.
"""

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from . import shards
from .shards import Layout

PREFIX = "{" + shards.SERVICE_TAG + "}"  # the service's own keys
_layout = Layout.SINGLE


def use_layout(layout: Layout) -> None:
    """Name keys as ``layout`` tags them, from now on in this process: set once, as it connects."""
    global _layout
    _layout = layout


def layout() -> Layout:
    """How this process names keys (``use_layout``)."""
    return _layout


def _shard(shard: int) -> str:
    """The start of a key of ``shard``: its hash tag."""
    return "{" + shards.tag(shard, _layout) + "}"


def _player(name: str) -> str:
    return _shard(shards.of_name(name))


def _owned(some_id: str) -> str:
    return _shard(shards.of_id(some_id))


def distinct_shards() -> range:
    """One shard for each distinct tag: every shard on a cluster, shard 0 alone on one Redis (where all
    shards' keys are one), so a pass over ``shard``'s indexes visits each key once."""
    return shards.ALL if _layout is Layout.CLUSTER else range(1)


def every(key_of_shard: Callable[[int], str]) -> list[str]:
    """The keys of an index kept once per shard (``key_of_shard(shard)`` each), each named once:
    one key on one Redis, one per shard on a cluster."""
    return [key_of_shard(shard) for shard in distinct_shards()]


def player(name: str) -> str:
    """Hash: the player's name, token hash and creation time."""
    return f"{_player(name)}:player:{name}"


def player_name(name: str) -> str:
    """String: the player's name as registered, under its lower-case spelling: ``Ada`` and ``ADA`` are one name.

    Names are ASCII, so ``lower`` is the whole case fold.
    """
    return f"{_player(name)}:player-name:{name.lower()}"


def old_player_names_indexed() -> str:
    """String of an older layout, set once every player had their ``player_name``: read only by
    ``store.layout_migration``, which gives each player theirs."""
    return f"{PREFIX}:player-names-indexed"


def token(token_hash: str) -> str:
    """String: the name of the player whose token hashes to ``token_hash``."""
    return f"{_owned(token_hash)}:token:{token_hash}"


def run(run_id: str) -> str:
    """Hash: a submitted run, its verdict once there is one, its audit log (``store.audit``).

    Its id is this key's last part (scripts read it so: ``lua/_placement.lua``).
    """
    return f"{_owned(run_id)}:run:{run_id}"


def player_runs(name: str) -> str:
    """Sorted set: a player's run ids scored by submission time (ms)."""
    return f"{_player(name)}:player-runs:{name}"


def following(name: str) -> str:
    """Sorted set: the players ``name`` follows (their names as registered) → when they were followed (ms)."""
    return f"{_player(name)}:following:{name}"


def submission(name: str, fingerprint: str) -> str:
    """String: the id of the player's open run of a game (``store.runs.fingerprint``), for a run whose id
    is not the one its player and game give (``store.runs.open_run_id``): an id given at random, kept
    because clients hold it. The same game sent again finds its run here."""
    return f"{_player(name)}:submission:{name}:{fingerprint}"


def idempotency(name: str, key: str) -> str:
    """String: ``run_id fingerprint`` for a player's Idempotency-Key."""
    return f"{_player(name)}:idempotency:{name}:{key}"


# The places' and run-id hash's names of the kinds of board (``domain.boards``) not named
# ``<kind>-board`` and ``<kind>-runs``.
_PLACES = {"open": "board", "ladder": "ladder"}
_HOLDERS = {"open": "board-runs"}


def board_shard(kind: str, parts: tuple[str, ...]) -> int:
    """The shard of every key of one board: its places, runs, windows, game counts."""
    return shards.of_id(f"{kind}:{':'.join(parts)}")


def _board(kind: str, parts: tuple[str, ...]) -> str:
    return _shard(board_shard(kind, parts))


def board_places(kind: str, parts: tuple[str, ...]) -> str:
    """Sorted set: player → packed rank key of their place on one board of ``kind``, the board
    its key ``parts`` name (``domain.boards.Board.parts``: a variant, a day, a deal)."""
    return f"{_board(kind, parts)}:{_PLACES.get(kind, f'{kind}-board')}:{':'.join(parts)}"


def board_holders(kind: str, parts: tuple[str, ...]) -> str:
    """Hash: player → the run id that holds their place on that board (a kind that names its runs)."""
    return f"{_board(kind, parts)}:{_HOLDERS.get(kind, f'{kind}-runs')}:{':'.join(parts)}"


def board_window(kind: str, parts: tuple[str, ...], player: str) -> str:
    """Sorted set: ``<run id>:<score>`` of the player's latest verified runs on a board ranking the
    latest (the ladder), by submission time (ms)."""
    return f"{_board(kind, parts)}:{kind}-window:{':'.join(parts)}:{player}"


def board_games(kind: str, parts: tuple[str, ...]) -> str:
    """Hash: player → how many verified runs they have on a board ranking the latest (the ladder)."""
    return f"{_board(kind, parts)}:{kind}-games:{':'.join(parts)}"


def board_versions(kind: str, parts: tuple[str, ...]) -> str:
    """Hash: player → their version on one board, a fence and a count of offers (``lua/_fence.lua``): a
    step that read it before reading the runs it places refuses to write once it moved (``store.placing``)."""
    return f"{_board(kind, parts)}:{kind}-versions:{':'.join(parts)}"


def board_placed(kind: str, parts: tuple[str, ...]) -> str:
    """Set: the ids of runs still being placed (``placing``) whose place this board holds already, so
    that offering one again changes nothing (``store.placing``)."""
    return f"{_board(kind, parts)}:{kind}-placed:{':'.join(parts)}"


def placing(shard: int) -> str:
    """Sorted set: ``shard``'s runs whose verdict is written and whose board places are still owed →
    when the verdict was written (ms); the sweeper finishes those left too long (``store.placing``)."""
    return f"{_shard(shard)}:placing"


def replacing(shard: int) -> str:
    """Sorted set: ``shard``'s runs voided, restored or re-verified whose player's places on the run's
    boards are still to be recomputed → when (ms); the sweeper finishes those left too long (``store.placing``)."""
    return f"{_shard(shard)}:replacing"


def closed(part: str, shard: int | None = None) -> str:
    """Sorted set: the values of a board key part that have closed (``domain.boards.Board.closed_by``:
    the seasons) → when each ended (ms). A board whose part holds one of them is frozen: no placing
    script changes it (``lua/_placement.lua``). Kept for good, one short member a season.

    ``shard`` None: the service's list, the one that says a season is over; a shard's own copy,
    written before it, is what that shard's boards' scripts read."""
    return f"{PREFIX if shard is None else _shard(shard)}:closed:{part}"


def seasons_began() -> str:
    """String: when the service began keeping seasons (ms): the seasons that closes start with the one in
    force then (``store.seasons``)."""
    return f"{PREFIX}:seasons-began"


def board(variant: str) -> str:
    """Sorted set: player → packed (score, submission time) of their best verified run."""
    return board_places("open", (variant,))


def board_runs(variant: str) -> str:
    """Hash: player → the run id that holds their place on the variant's board."""
    return board_holders("open", (variant,))


def daily_board(date: str) -> str:
    """Sorted set: player → packed score of their first verified run on the day's seed."""
    return board_places("daily", (date,))


def daily_runs(date: str) -> str:
    """Hash: player → the run id that holds their place on the day's board."""
    return board_holders("daily", (date,))


def dealt_board(variant: str) -> str:
    """Sorted set: player → packed rank key of their best verified dealt game of a variant."""
    return board_places("dealt", (variant,))


def dealt_runs(variant: str) -> str:
    """Hash: player → the run id that holds their place on the variant's dealt board."""
    return board_holders("dealt", (variant,))


def sealed_board(date: str) -> str:
    """Sorted set: player → packed rank key of their first verified game on the day's sealed seed."""
    return board_places("sealed", (date,))


def sealed_runs(date: str) -> str:
    """Hash: player → the run id that holds their place on the day's sealed board."""
    return board_holders("sealed", (date,))


def seed_board(variant: str, seed: str) -> str:
    """Sorted set: player → packed rank key of their best verified open run on one (variant, seed).

    Beside it ``seed_runs`` names each place's run. A seed board no verdict
    changed for ``SCOUNDREL_HOT_DAYS`` leaves Redis for the archive
    (``store.board_cooling``): one key per deal played, the long tail.
    """
    return board_places("seed", (variant, seed))


def seed_runs(variant: str, seed: str) -> str:
    """Hash: player → the run id that holds their place on one (variant, seed)'s seed board."""
    return board_holders("seed", (variant, seed))


def ladder(variant: str) -> str:
    """Sorted set: player → packed ladder key (sum of their last games, then when they finished the last)."""
    return board_places("ladder", (variant,))


def ladder_window(variant: str, player: str) -> str:
    """Sorted set: ``<run id>:<score>`` of the player's latest verified dealt games, by submission time (ms)."""
    return board_window("ladder", (variant,), player)


def ladder_games(variant: str) -> str:
    """Hash: player → how many verified dealt games of the variant they have."""
    return board_games("ladder", (variant,))


def daily_secret() -> str:
    """String: the secret the daily seeds are derived from when none is configured."""
    return f"{PREFIX}:daily-secret"


def moderator(name: str) -> str:
    """Hash: a moderator's name, token hash and creation time."""
    return f"{PREFIX}:moderator:{name}"


def moderator_name(name: str) -> str:
    """String: the moderator's name as registered, under its lower-case spelling: ``Ada`` and ``ADA`` are one name.

    Names are ASCII, so ``lower`` is the whole case fold.
    """
    return f"{PREFIX}:moderator-name:{name.lower()}"


def old_moderator_names_indexed() -> str:
    """String of an older layout, set once every moderator had their ``moderator_name``: read only by
    ``store.layout_migration``, which gives each moderator theirs."""
    return f"{PREFIX}:moderator-names-indexed"


def moderator_token(token_hash: str) -> str:
    """String: the name of the moderator whose token hashes to ``token_hash``.

    Apart from players' tokens, so a player's token can never act as a moderator's.
    """
    return f"{PREFIX}:moderator-token:{token_hash}"


def moderators() -> str:
    """Set: every moderator's name."""
    return f"{PREFIX}:moderators"


def pending_runs(shard: int) -> str:
    """Sorted set: run id → when it was last queued (ms), for every run of ``shard`` still pending.

    Added in the step that stores a run; the sweeper re-queues what stays
    here too long (every shard's) and drops what has a verdict.
    """
    return f"{_shard(shard)}:pending-runs"


def intake(shard: int) -> str:
    """List: the ids of ``shard``'s accepted single submissions waiting for a verification job, oldest first.

    Pushed in the step that stores a run (whose ``job`` then says
    ``store.intake.IN_INTAKE``); a dispatcher (``store.intake``) takes up
    to a job's worth from its head, then queues their job.
    """
    return f"{_shard(shard)}:intake"


def intake_doorbell() -> str:
    """List: a ring for the dispatchers (``store.intake``), pushed when a shard's intake was empty before
    a run's push; a dispatcher waits on it (BLPOP), then drains every shard's intake."""
    return f"{PREFIX}:intake-doorbell"


def archived_filter(shard: int) -> str:
    """String (a bitmap): the Bloom filter of ``shard``'s run ids the archive may hold (``store.archived_filter``)."""
    return f"{_shard(shard)}:archived-filter"


def archived_filter_whole(shard: int) -> str:
    """String: set once every run of ``shard`` the archive holds is noted in its ``archived_filter``;
    until then a new run's submission asks the archive."""
    return f"{_shard(shard)}:archived-filter-whole"


def sweep_lock() -> str:
    """String: held (with an expiry) by the one worker sweeping the pending runs right now."""
    return f"{PREFIX}:sweep-lock"


_WRITE_PROBE = "write-probe"  # its family, which ``cluster_home`` passes over


def write_probe(shard: int) -> str:
    """String: written (with a short expiry) by ``Database.accepts_writes`` to learn whether Redis takes
    writes: one per shard, so a probe can reach each master of a cluster."""
    return f"{_shard(shard)}:{_WRITE_PROBE}"


def rate_limit_prefix() -> str:
    """Prefix of Flask-Limiter's counters (it spells the rest of their names itself)."""
    return f"{PREFIX}:rate"


def metrics(shard: int | None = None) -> str:
    """Hash: counter name (with its labels) → count, written by the API and the workers alike: one per
    shard, counted by the scripts of that shard (``None``: the service's own), summed by the readers."""
    return f"{PREFIX if shard is None else _shard(shard)}:metrics"


def latency(shard: int) -> str:
    """Hash: verification latency histogram of ``shard``'s runs: bucket bound → count, plus ``sum`` and ``count``."""
    return f"{_shard(shard)}:latency"


def move_latency(shard: int) -> str:
    """Hash: move request latency histogram of ``shard``'s games: bucket bound → count, plus ``sum`` and ``count``."""
    return f"{_shard(shard)}:move-latency"


def old_run_index() -> str:
    """Sorted set: every run id scored by submission time (ms), of an older layout: read only by
    ``store.layout_migration``, which replaces it with ``run_players``."""
    return f"{PREFIX}:runs"


def run_players(shard: int) -> str:
    """Sorted set: every player of ``shard`` with a run in Redis → their oldest run's submission time (ms)."""
    return f"{_shard(shard)}:run-players"


def old_audit_stream(run_id: str) -> str:
    """Stream: a run's audit log, one entry per change, of an older layout: read only by
    ``store.layout_migration``, which moves it into the run's hash (``store.audit``)."""
    return f"{_owned(run_id)}:audit:{run_id}"


def dispute(dispute_id: str) -> str:
    """Hash: a player's dispute of a run, and its resolution once there is one."""
    return f"{PREFIX}:dispute:{dispute_id}"


def disputes(status: str) -> str:
    """Sorted set: dispute ids with ``status`` (open, resolved) scored by filing time (ms)."""
    return f"{PREFIX}:disputes:{status}"


# Dealt games (``store.games``); their scripts are in ``store/lua``.

def game(game_id: str) -> str:
    """Hash: a dealt game: its player, variant, seed, moves and their times, status.

    No expiry while it is played (an expiring game would be a free reroll);
    kept ``GAME_KEPT`` seconds once it ends (its run keeps the record).
    """
    return f"{_shard(shards.of_game(game_id))}:game:{game_id}"


def games_playing(shard: int) -> str:
    """Sorted set: the id of every game of ``shard`` being played → its last move's time (ms), for idle forfeits."""
    return f"{_shard(shard)}:games-playing"


def games_ending(shard: int) -> str:
    """Sorted set: ``shard``'s ended games whose run may not be accepted yet → when they ended (ms).

    The move that ends a game puts it here in the same script; accepting its
    run takes it out. The sweeper accepts the run of any game left here.
    """
    return f"{_shard(shard)}:games-ending"


def sealed_game(date: str, player: str) -> str:
    """String: the id of the player's sealed daily game of ``date`` (one a day)."""
    return f"{_player(player)}:sealed-game:{date}:{player}"


def player_games_playing(player: str) -> str:
    """Hash: the player's dealt games in play: slot (the variant, or ``daily:<date>``) → game id.

    One game a slot: ``start_game.lua`` refuses a second, ``play_moves.lua``
    frees the slot in the script that ends the game.
    """
    return f"{_player(player)}:player-games-playing:{player}"


def next_deal(player: str) -> str:
    """String: the server seed of the player's next free game, committed to (``next-deal``) before it starts.

    No expiry: a commitment shown must hold until its game starts, which takes it.
    """
    return f"{_player(player)}:next-deal:{player}"


def streak(player: str) -> str:
    """Hash: the player's streak of sealed dailies (``domain.streak``): ``last`` (the last day counted),
    ``run`` (days in a row ending there), ``best``. Set by the script that ends a sealed daily game
    (``lua/_streak.lua``); kept for good (three short fields a player)."""
    return f"{_player(player)}:streak:{player}"


def sealed_playing(date: str, shard: int) -> str:
    """Set: ``shard``'s sealed daily games of ``date`` still in play, for the close of that day to forfeit."""
    return f"{_shard(shard)}:sealed-playing:{date}"


def sealed_closed(shard: int | None = None) -> str:
    """Set: the dates whose sealed daily is closed: no game of it takes a move, its seed may be shown.

    Kept for good (one short member a day): a day once closed stays closed.
    ``shard`` None: the service's set, the one that says a day's seed may be
    shown; a shard's own, written before it, is what that shard's game
    scripts read.
    """
    return f"{PREFIX if shard is None else _shard(shard)}:sealed-closed"


def sealed_secret() -> str:
    """String: the secret the sealed daily seeds are derived from when none is configured."""
    return f"{PREFIX}:sealed-secret"


def service_mark() -> str:
    """String: ``store.service_mark.SERVICE``, set by the API and every worker as they start: this
    Redis holds the service's data (the operator commands refuse a Redis without it)."""
    return f"{PREFIX}:service"


def board_archive_lock() -> str:
    """String: held (with an expiry) while boards move between Redis and the archive, or a player's
    places on boards the archive holds are recomputed (``store.board_cooling``): one writer at a time."""
    return f"{PREFIX}:board-archive-lock"


def archive_lock() -> str:
    """String: held (with an expiry) by the one process moving old runs to the archive right now."""
    return f"{PREFIX}:archive-lock"


# Flags for moderators (``store.flags``); their scripts are in ``store/lua``.

def flag(flag_id: str) -> str:
    """Hash: a flag for moderators: its reason, status, players, runs, detail, time, and its dismissal."""
    return f"{PREFIX}:flag:{flag_id}"


def flags(reason: str = "", status: str = "") -> str:
    """Sorted set: the ids of the flags of ``reason`` with ``status`` (either empty: any) → when raised (ms)."""
    return f"{PREFIX}:flags:{reason or 'all'}:{status or 'all'}"


def run_flags(run_id: str) -> str:
    """Set: the ids of the flags that name a run."""
    return f"{PREFIX}:run-flags:{run_id}"


def flag_address(date: str, address_hash: str) -> str:
    """Hash: player → run id of each player who started ``date``'s sealed daily from one client address
    (its keyed hash, never the address), and ``:flag`` → the id of its shared_address flag. It expires
    a week after the day."""
    return f"{PREFIX}:flag-address:{date}:{address_hash}"


def address_secret() -> str:
    """String: the key of the client address hashes when none is configured."""
    return f"{PREFIX}:address-secret"


# Webhooks (``store.webhooks``): the moderators' endpoints and the events on their way to them.

def webhook(hook_id: str) -> str:
    """Hash: a webhook: its URL, the events it takes, its signing secret, who registered it and when."""
    return f"{PREFIX}:webhook:{hook_id}"


def webhooks() -> str:
    """Sorted set: every webhook's id → when it was registered (ms). Absent when there is none, so
    the scripts that record events skip them (``lua/_events.lua``)."""
    return f"{PREFIX}:webhooks"


def webhooks_registered(shard: int) -> str:
    """String: set in each shard while a webhook is registered (``store.webhooks.mirror_webhooks``), so a
    script of that shard knows whether to record its events (``lua/_events.lua``) without reading
    ``webhooks``, which is another shard's."""
    return f"{_shard(shard)}:webhooks-registered"


def webhook_deliveries(hook_id: str) -> str:
    """List: the webhook's latest delivery attempts, newest first, as JSON (capped: ``store.webhooks``)."""
    return f"{PREFIX}:webhook-deliveries:{hook_id}"


def webhook_outbox(shard: int | None = None) -> str:
    """List: events recorded (as JSON) in the step that made them true, oldest first, until
    their deliveries are queued (``store.webhooks.drain_outbox``): one per shard, for the events
    of that shard's scripts (``None``: the service's own)."""
    return f"{PREFIX if shard is None else _shard(shard)}:webhook-outbox"


def webhook_outbox_lock() -> str:
    """String: held (with an expiry) by the one process draining the outbox right now."""
    return f"{PREFIX}:webhook-outbox-lock"


def webhook_release_lock() -> str:
    """String: held (with an expiry) by the one process queueing the delivery retries now due."""
    return f"{PREFIX}:webhook-release-lock"


def webhook_drain_queued() -> str:
    """String: set (with an expiry) while a job draining the outbox is queued and not yet started: the
    events recorded meanwhile are that job's, so no other is queued for them."""
    return f"{PREFIX}:webhook-drain-queued"


def moved_from() -> str:
    """Hash: ``from``, the one Redis (its URL, password hidden) whose keys ``scoundrel move-to-cluster``
    copies into this cluster, and ``finished_ms`` once it copied them all (``store.cluster_move``): a
    second copy from it resumes an unfinished one, and none follows a finished one."""
    return f"{PREFIX}:moved-from"


# Parsing key names: what a key found by a SCAN is, in any layout.

def untagged(key: str) -> str:
    """A key's name without its hash tag: the same in every layout (``{s3.17}:run:x`` → ``run:x``)."""
    return key.split("}:", 1)[1] if key.startswith("{") and "}:" in key else key


def any_tag(key: str) -> str:
    """A SCAN pattern of ``key`` under whichever tag: ``any_tag(player_runs("*"))`` matches every
    player's run list, each under its own shard's tag on a cluster."""
    return "{*}:" + untagged(key)


def family(key: str) -> str:
    """The kind of a key: the word after its tag (``run``, ``player-runs``, ``dealt-board``)."""
    return untagged(key).split(":", 1)[0]


def _parts(key: str) -> str:
    """What follows a key's family: the values its function was given, ':' between."""
    return untagged(key).split(":", 1)[1] if ":" in untagged(key) else ""


def player_of_runs(key: str) -> str:
    """The player whose run list (``player_runs``) ``key`` is."""
    return _parts(key)


def board_of_key(key: str, parts: int) -> tuple[str, ...]:
    """The key parts of the board (of ``parts`` parts) of a board's places, holders or counts key."""
    return tuple(_parts(key).split(":", parts - 1))


def board_and_player_of_window(key: str, parts: int) -> tuple[tuple[str, ...], str]:
    """The key parts (``parts`` of them) and the player of a board's window key (``board_window``)."""
    *board_parts, player = _parts(key).split(":", parts)
    return tuple(board_parts), player


# Where each key of one Redis goes on a cluster (``store.cluster_move``).

class Home(Enum):
    """How a one-Redis key is copied into a cluster."""

    SAME = "same"  # the service's own: the same name
    OWNER = "owner"  # one owner's (a player, run, token, game, board): its name under its shard's tag
    SPLIT = "split"  # an index kept once per shard: each member into its own shard's key
    EVERY = "every"  # a copy each shard's scripts read: into every shard's key (and the service's, if it has one)
    FIRST = "first"  # a per-shard histogram its readers sum: whole into shard 0's
    REBUILT = "rebuilt"  # not copied: the service rebuilds it on the cluster (the archived-runs filter)
    TRANSIENT = "transient"  # not copied: the write probe, which expires seconds after it is written


@dataclass(frozen=True)
class ClusterHome:
    """Where a one-Redis key goes on a cluster: ``how``, and for ``OWNER`` the ``shard``, for ``SPLIT``
    the shard of each member (``member_shard``)."""

    how: Home
    name: str  # the key's name without its tag
    shard: int = 0
    member_shard: Callable[[str], int] | None = None
    service_copy: bool = False  # ``EVERY``: the service's own key too

    def key(self, shard: int | None) -> str:
        """The key on the cluster in ``shard`` (None: the service's)."""
        tag = shards.SERVICE_TAG if shard is None else shards.tag(shard, Layout.CLUSTER)
        return "{" + tag + "}:" + self.name

    def targets(self) -> list[str]:
        """The cluster's keys this key is copied to whole (none for ``SPLIT``: its members are spread)."""
        match self.how:
            case Home.SAME:
                return [self.key(None)]
            case Home.OWNER:
                return [self.key(self.shard)]
            case Home.FIRST:
                return [self.key(0)]
            case Home.EVERY:
                return [*([self.key(None)] if self.service_copy else []), *(self.key(shard) for shard in shards.ALL)]
        return []


def _first(parts: str) -> str:
    return parts.split(":", 1)[0]


def _second(parts: str) -> str:
    return parts.split(":", 2)[1]


def _board_of(kind: str, parts: str) -> int:
    return shards.of_id(f"{kind}:{parts}")


def _board_kind(found: str) -> str | None:
    """The kind of board whose places, holders, windows or counts the family ``found`` names, or None."""
    for kind, name in (*_PLACES.items(), *_HOLDERS.items()):
        if found == name:
            return kind
    for suffix in ("-board", "-runs", "-window", "-games", "-versions", "-placed"):
        if found.endswith(suffix):
            return found.removesuffix(suffix)
    return None


_SERVICE_FAMILIES = frozenset(family(key) for key in (
    old_player_names_indexed(), seasons_began(), daily_secret(), moderator("_"), moderator_name("_"),
    old_moderator_names_indexed(), moderator_token("_"), moderators(), sweep_lock(), old_run_index(),
    dispute("_"), disputes("_"), service_mark(), board_archive_lock(), archive_lock(), flag("_"), flags(),
    run_flags("_"), flag_address("_", "_"), address_secret(), webhook("_"), webhooks(), webhook_deliveries("_"),
    webhook_outbox_lock(), webhook_release_lock(), webhook_drain_queued(), sealed_secret(), moved_from(),
    metrics(), webhook_outbox(), rate_limit_prefix(), intake_doorbell()))
# a family → which of its parts names the player who owns it
_PLAYER_FAMILIES = {family(player("_")): _first, family(player_name("_")): _first,
                    family(player_runs("_")): _first, family(following("_")): _first,
                    family(submission("_", "_")): _first, family(idempotency("_", "_")): _first,
                    family(sealed_game("_", "_")): _second, family(player_games_playing("_")): _first,
                    family(next_deal("_")): _first, family(streak("_")): _first}
_ID_FAMILIES = {family(token("_")): shards.of_id, family(run("_")): shards.of_id,
                family(old_audit_stream("_")): shards.of_id, family(game("_")): shards.of_game}
# the per-shard indexes: a family → the shard of each member
_SPLIT_FAMILIES: dict[str, Callable[[str], int]] = {
    family(pending_runs(0)): shards.of_id, family(intake(0)): shards.of_id, family(run_players(0)): shards.of_name,
    family(games_playing(0)): shards.of_game, family(games_ending(0)): shards.of_game,
    family(sealed_playing("_", 0)): shards.of_game, family(placing(0)): shards.of_id,
    family(replacing(0)): shards.of_id}
_EVERY_FAMILIES = {family(closed("_")): True, family(sealed_closed()): True, family(webhooks_registered(0)): False}
_FIRST_FAMILIES = frozenset((family(latency(0)), family(move_latency(0))))
_REBUILT_FAMILIES = frozenset((family(archived_filter(0)), family(archived_filter_whole(0))))


def cluster_home(key: str) -> ClusterHome | None:
    """Where the one-Redis key ``key`` goes on a cluster; None for a key that is not the service's
    (RQ's queues, which stay on the queue's Redis, or a stranger's).

    The one place besides the key functions above that knows every family of
    key: a family added above and not here is reported by the move as not
    the service's (and its test, which calls every key function, fails).
    """
    if not key.startswith(PREFIX + ":"):
        return None
    found, name, parts = family(key), untagged(key), _parts(key)
    if found in _SERVICE_FAMILIES or found.startswith(family(rate_limit_prefix())):
        return ClusterHome(Home.SAME, name)
    if found == _WRITE_PROBE:
        return ClusterHome(Home.TRANSIENT, name)
    if found in _PLAYER_FAMILIES:
        return ClusterHome(Home.OWNER, name, shard=shards.of_name(_PLAYER_FAMILIES[found](parts)))
    if found in _ID_FAMILIES:
        return ClusterHome(Home.OWNER, name, shard=_ID_FAMILIES[found](parts))
    if found in _SPLIT_FAMILIES:
        return ClusterHome(Home.SPLIT, name, member_shard=_SPLIT_FAMILIES[found])
    if found in _EVERY_FAMILIES:
        return ClusterHome(Home.EVERY, name, service_copy=_EVERY_FAMILIES[found])
    if found in _FIRST_FAMILIES:
        return ClusterHome(Home.FIRST, name)
    if found in _REBUILT_FAMILIES:
        return ClusterHome(Home.REBUILT, name)
    kind = _board_kind(found)
    if kind is not None and parts:
        if found == f"{kind}-window":
            parts = parts.rsplit(":", 1)[0]
        return ClusterHome(Home.OWNER, name, shard=_board_of(kind, parts))
    return None
