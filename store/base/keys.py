"""Every Redis key name of the service; nothing else spells a key.

Every key starts with ``PREFIX``, the service's namespace on its one Redis
(RQ's own queue keys are RQ's business): the names every release has
written, so a store needs no renaming from one release to the next. The
Lua scripts that change several keys atomically live in ``store/lua``, each
called through its wrapper in the ``scripts`` module of its subject
(``store.runs.scripts``, ``store.games.scripts``…).
"""

import zlib

PREFIX = "{scoundrel}"


def player(name: str) -> str:
    """Hash: the player's name, token hash and creation time."""
    return f"{PREFIX}:player:{name}"


def player_name(name: str) -> str:
    """String: the player's name as registered, under its lower-case spelling: ``Ada`` and ``ADA`` are one name.

    Names are ASCII, so ``lower`` is the whole case fold.
    """
    return f"{PREFIX}:player-name:{name.lower()}"


def old_player_names_indexed() -> str:
    """String of an older layout, set once every player had their ``player_name``: read only by
    ``store.operations.migration``, which gives each player theirs."""
    return f"{PREFIX}:player-names-indexed"


def token(token_hash: str) -> str:
    """String: the name of the player whose token hashes to ``token_hash``."""
    return f"{PREFIX}:token:{token_hash}"


def run(run_id: str) -> str:
    """Hash: a submitted run, its verdict once there is one, its audit log (``store.runs.audit``).

    Its id is this key's last part (scripts read it so: ``lua/_placement.lua``).
    """
    return f"{PREFIX}:run:{run_id}"


def player_runs(name: str) -> str:
    """Sorted set: a player's run ids scored by submission time (ms)."""
    return f"{PREFIX}:player-runs:{name}"


def following(name: str) -> str:
    """Sorted set: the players ``name`` follows (their names as registered) → when they were followed (ms)."""
    return f"{PREFIX}:following:{name}"


def submission(name: str, fingerprint: str) -> str:
    """String: the id of the player's open run of a game (``store.runs.fingerprint``), for a run whose id
    is not the one its player and game give (``store.runs.open_run_id``): an id given at random, kept
    because clients hold it. The same game sent again finds its run here."""
    return f"{PREFIX}:submission:{name}:{fingerprint}"


def idempotency(name: str, key: str) -> str:
    """String: ``run_id fingerprint`` for a player's Idempotency-Key."""
    return f"{PREFIX}:idempotency:{name}:{key}"


# The places' and run-id hash's names of the kinds of board (``domain.boards``) not named
# ``<kind>-board`` and ``<kind>-runs``.
_PLACES = {"open": "board", "ladder": "ladder"}
_HOLDERS = {"open": "board-runs"}


def board_places(kind: str, parts: tuple[str, ...]) -> str:
    """Sorted set: player → packed rank key of their place on one board of ``kind``, the board
    its key ``parts`` name (``domain.boards.Board.parts``: a variant, a day, a deal)."""
    return f"{PREFIX}:{_PLACES.get(kind, f'{kind}-board')}:{':'.join(parts)}"


def board_holders(kind: str, parts: tuple[str, ...]) -> str:
    """Hash: player → the run id that holds their place on that board (a kind that names its runs)."""
    return f"{PREFIX}:{_HOLDERS.get(kind, f'{kind}-runs')}:{':'.join(parts)}"


SOLE_BUCKETS = 2048  # the hashes the boards of one place share: about 10 boards each at 20,000 boards, within
# Redis' compact listpack (512 fields) up to 1,048,576


def sole_places(board: str) -> str:
    """Hash: the boards of one place of a kind kept so (``domain.boards.Board.sole``) by their names
    (``domain.boards.BoardId.name``) → ``<packed rank key> <player> <run id>``, or ``*`` for a board of the kind
    in its two keys (``lua/_sole.lua``'s ``SPREAD``); a board's hash is one of
    ``SOLE_BUCKETS`` by its name's CRC-32, so each stays a compact listpack where a key a board would
    cost more than its place."""
    return _sole_bucket(zlib.crc32(board.encode()) % SOLE_BUCKETS)


def every_sole_places() -> list[str]:
    """Every hash ``sole_places`` names."""
    return [_sole_bucket(bucket) for bucket in range(SOLE_BUCKETS)]


def _sole_bucket(bucket: int) -> str:
    return f"{PREFIX}:sole-places:{bucket}"


def board_window(kind: str, parts: tuple[str, ...], player: str) -> str:
    """Sorted set: ``<run id>:<score>`` of the player's latest verified runs on a board ranking the
    latest (the ladder), by submission time (ms)."""
    return f"{PREFIX}:{kind}-window:{':'.join(parts)}:{player}"


def board_games(kind: str, parts: tuple[str, ...]) -> str:
    """Hash: player → how many verified runs they have on a board ranking the latest (the ladder)."""
    return f"{PREFIX}:{kind}-games:{':'.join(parts)}"


def closed(part: str) -> str:
    """Sorted set: the values of a board key part that have closed (``domain.boards.Board.closed_by``:
    the seasons) → when each ended (ms). A board whose part holds one of them is frozen: no placing
    script changes it (``lua/_placement.lua``). Kept for good, one short member a season."""
    return f"{PREFIX}:closed:{part}"


def seasons_began() -> str:
    """String: when the service began keeping seasons (ms): the seasons that closes start with the one in
    force then (``store.boards.seasons``)."""
    return f"{PREFIX}:seasons-began"


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
    ``store.operations.migration``, which gives each moderator theirs."""
    return f"{PREFIX}:moderator-names-indexed"


def moderator_token(token_hash: str) -> str:
    """String: the name of the moderator whose token hashes to ``token_hash``.

    Apart from players' tokens, so a player's token can never act as a moderator's.
    """
    return f"{PREFIX}:moderator-token:{token_hash}"


def moderators() -> str:
    """Set: every moderator's name."""
    return f"{PREFIX}:moderators"


def server_key(name: str) -> str:
    """Hash: a studio's server key: its name, token hash and creation time (``store.accounts.server_keys``)."""
    return f"{PREFIX}:server-key:{name}"


def server_key_name(name: str) -> str:
    """String: the server key's name as registered, under its lower-case spelling."""
    return f"{PREFIX}:server-key-name:{name.lower()}"


def server_key_token(token_hash: str) -> str:
    """String: the name of the server key that hashes to ``token_hash``: apart from players' and moderators'."""
    return f"{PREFIX}:server-key-token:{token_hash}"


def server_keys() -> str:
    """Set: every server key's name."""
    return f"{PREFIX}:server-keys"


def pending_runs() -> str:
    """Sorted set: run id → when it was last queued (ms), for every run pending with a job.

    Added in the script that gives a run its job (a batch's accept script, the
    intake's take: a run waiting in the intake is pending too, not yet here);
    the sweeper re-queues what stays here too long, and the script that
    records a run's verdict drops it.
    """
    return f"{PREFIX}:pending-runs"


def pending_jobs() -> str:
    """Hash: run id → the job that verifies it, then a space and the request that submitted it (as in its
    intake entry: ``store.queue.intake.entry_parts`` reads both), for a run a dispatcher took from the intake:
    written once a job (``take_intake``), dropped with the verdicts. A run not in it names its job itself (its
    hash's ``job``: ``store.queue.pending.jobs_of``)."""
    return f"{PREFIX}:pending-jobs"


def intake() -> str:
    """List: the entries of accepted single submissions waiting for a verification job, oldest first (each
    its run's id and its request's id: ``store.queue.intake.intake_entry``).

    Pushed in the script that accepts a run (whose hash then names no job); a dispatcher
    (``store.queue.intake``) takes up to a job's worth from its head in one script, then queues their job.
    """
    return f"{PREFIX}:intake"


def archived_filter() -> str:
    """String (a bitmap): the Bloom filter of the run ids the archive may hold, and past a run's bits the
    one set once it is whole (``store.runs.archived_filter``)."""
    return f"{PREFIX}:archived-filter"


def old_archived_filter_whole() -> str:
    """String of an older layout, set once the archived-runs filter was whole (today a bit of the filter
    says so): read only by ``store.operations.migration``, which sets that bit in its place."""
    return f"{PREFIX}:archived-filter-whole"


def sweep_lock() -> str:
    """String: held (with an expiry) by the one worker sweeping the pending runs right now."""
    return f"{PREFIX}:sweep-lock"


def write_probe() -> str:
    """String: written (with a short expiry) by ``Database.accepts_writes`` to learn whether Redis takes writes."""
    return f"{PREFIX}:write-probe"


def rate_limit_prefix() -> str:
    """Prefix of Flask-Limiter's counters (it spells the rest of their names itself)."""
    return f"{PREFIX}:rate"


def metrics() -> str:
    """Hash: counter name (with its labels) → count, written by the API and the workers alike."""
    return f"{PREFIX}:metrics"


def latency() -> str:
    """Hash: verification latency histogram: bucket bound → count, plus ``sum`` and ``count``."""
    return f"{PREFIX}:latency"


def move_latency() -> str:
    """Hash: move request latency histogram: bucket bound → count, plus ``sum`` and ``count``."""
    return f"{PREFIX}:move-latency"


def old_run_index() -> str:
    """Sorted set: every run id scored by submission time (ms), of an older layout: read only by
    ``store.operations.migration``, which replaces it with ``run_players``."""
    return f"{PREFIX}:runs"


def run_players() -> str:
    """Sorted set: every player with a run in Redis → their oldest run's submission time (ms)."""
    return f"{PREFIX}:run-players"


def old_audit_stream(run_id: str) -> str:
    """Stream: a run's audit log, one entry per change, of an older layout: read only by
    ``store.operations.migration``, which moves it into the run's hash (``store.runs.audit``)."""
    return f"{PREFIX}:audit:{run_id}"


def dispute(dispute_id: str) -> str:
    """Hash: a player's dispute of a run, and its resolution once there is one."""
    return f"{PREFIX}:dispute:{dispute_id}"


def disputes(status: str) -> str:
    """Sorted set: dispute ids with ``status`` (open, resolved) scored by filing time (ms)."""
    return f"{PREFIX}:disputes:{status}"


# Dealt games (``store.games.dealt``); their scripts are in ``store/lua``.

def game(game_id: str) -> str:
    """Hash: a dealt game: its player, variant, seed, moves and their times, status.

    No expiry while it is played (an expiring game would be a free reroll);
    kept ``GAME_KEPT`` seconds once it ends (its run keeps the record).
    """
    return f"{PREFIX}:game:{game_id}"


def games_playing() -> str:
    """Sorted set: the id of every game being played → its last move's time (ms), for idle forfeits."""
    return f"{PREFIX}:games-playing"


def sealed_game(date: str, player: str) -> str:
    """String: the id of the player's sealed daily game of ``date`` (one a day)."""
    return f"{PREFIX}:sealed-game:{date}:{player}"


def player_games_playing(player: str) -> str:
    """Hash: the player's dealt games in play: slot (the variant, or ``daily:<date>``) → game id.

    One game a slot: ``start_game.lua`` refuses a second, ``play_moves.lua``
    frees the slot in the script that ends the game.
    """
    return f"{PREFIX}:player-games-playing:{player}"


def next_deal(player: str) -> str:
    """String: the server seed of the player's next free game, committed to (``next-deal``) before it starts.

    No expiry: a commitment shown must hold until its game starts, which takes it.
    """
    return f"{PREFIX}:next-deal:{player}"


def streak(player: str) -> str:
    """Hash: the player's streak of sealed dailies (``domain.streak``): ``last`` (the last day counted),
    ``run`` (days in a row ending there), ``best``. Set by the script that ends a sealed daily game
    (``lua/_streak.lua``); kept for good (three short fields a player)."""
    return f"{PREFIX}:streak:{player}"


def sealed_playing(date: str) -> str:
    """Set: the sealed daily games of ``date`` still in play, for the close of that day to forfeit."""
    return f"{PREFIX}:sealed-playing:{date}"


def sealed_closed() -> str:
    """Set: the dates whose sealed daily is closed: no game of it takes a move, its seed may be shown.

    Kept for good (one short member a day): a day once closed stays closed.
    """
    return f"{PREFIX}:sealed-closed"


def sealed_secret() -> str:
    """String: the secret the sealed daily seeds are derived from when none is configured."""
    return f"{PREFIX}:sealed-secret"


def moved_off() -> str:
    """Hash: ``from``, the Redis Cluster (its URL, password hidden) whose keys ``scoundrel move-off-cluster``
    copies into this Redis, its progress while it runs, and ``finished_ms`` once it copied them all
    (``store.operations.move_off_cluster``): a second move from it carries on an unfinished one, and
    none follows a finished one."""
    return f"{PREFIX}:moved-off"


def service_mark() -> str:
    """String: ``store.base.service_mark.SERVICE``, set by the API and every worker as they start: this
    Redis holds the service's data (the operator commands refuse a Redis without it)."""
    return f"{PREFIX}:service"


def board_archive_lock() -> str:
    """String: held (with an expiry) while boards move between Redis and the archive, or a player's
    places on boards the archive holds are recomputed (``store.boards.cooling``): one writer at a time."""
    return f"{PREFIX}:board-archive-lock"


def archive_lock() -> str:
    """String: held (with an expiry) by the one process moving old runs to the archive right now."""
    return f"{PREFIX}:archive-lock"


# Flags for moderators (``store.moderation.flags``); their scripts are in ``store/lua``.

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


def clairvoyance_tallies(player: str) -> str:
    """Sorted set: the player's most recent dealt games as judged for the clairvoyant flag
    (``store.moderation.clairvoyance``): ``<run id> <telling decisions> <perfect choices>`` → the run's
    submission time (ms), and ``~cited`` → the submission time of the newest game a clairvoyant flag cites.
    The player's own data: erasure deletes it."""
    return f"{PREFIX}:clairvoyance:{player}"


def address_secret() -> str:
    """String: the key of the client address hashes when none is configured."""
    return f"{PREFIX}:address-secret"


# Webhooks (``store.webhooks.hooks``): the moderators' endpoints and the events on their way to them.

def webhook(hook_id: str) -> str:
    """Hash: a webhook: its URL, the events it takes, its signing secret, who registered it and when."""
    return f"{PREFIX}:webhook:{hook_id}"


def webhooks() -> str:
    """Sorted set: every webhook's id → when it was registered (ms). Absent when there is none, so
    the scripts that record events skip them (``lua/_events.lua``)."""
    return f"{PREFIX}:webhooks"


def webhook_deliveries(hook_id: str) -> str:
    """List: the webhook's latest delivery attempts, newest first, as JSON (capped: ``store.webhooks.hooks``)."""
    return f"{PREFIX}:webhook-deliveries:{hook_id}"


def webhook_outbox() -> str:
    """List: events recorded (as JSON) in the step that made them true, oldest first, until
    their deliveries are queued (``store.webhooks.hooks.drain_outbox``)."""
    return f"{PREFIX}:webhook-outbox"


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


# Par (``store.par``): the best score a deal allows, searched by a worker.

def par(variant: str, seed: str) -> str:
    """Hash: the par found for a deal played as ``variant``: the best line's score and moves, the proven
    upper bound, positions searched. Expires ``PAR_KEPT`` after its last search (any request searches again)."""
    return f"{PREFIX}:par:{variant}:{seed}"


def par_search(variant: str, seed: str) -> str:
    """String: set (with an expiry a little past the search's budget) while a worker's search of the deal's
    par is queued or running, so one search at a time; a worker lost mid-search lets it expire."""
    return f"{PREFIX}:par-search:{variant}:{seed}"


# Weekly leagues (``store.leagues``): a week's cohorts, formed as players join; each week's keys expire a
# while after it ends. A week is its ISO id (``2026-W49``).

def league_members(week: str) -> str:
    """Hash: player → "<cohort> <tier>", every player who joined the week's leagues."""
    return f"{PREFIX}:league-members:{week}"


def league_open(week: str) -> str:
    """Hash: tier → "<cohort> <players>", the cohort of each tier players join now, and how many it holds."""
    return f"{PREFIX}:league-open:{week}"


def league_cohorts(week: str) -> str:
    """String: the week's cohorts so far (the last cohort's id; ids count from 1, across tiers)."""
    return f"{PREFIX}:league-cohorts:{week}"


def league_tiers(week: str) -> str:
    """Hash: cohort → its tier (an index into ``SCOUNDREL_LEAGUE_TIERS``)."""
    return f"{PREFIX}:league-tiers:{week}"


def league_cohort(week: str, cohort: str) -> str:
    """List: a cohort's players in the order they joined (``cohort`` "" gives the prefix of them all)."""
    return f"{PREFIX}:league-cohort:{week}:{cohort}"


def league_history(player: str) -> str:
    """Hash: week → "<cohort> <tier>", each week the player joined the leagues."""
    return f"{PREFIX}:league-history:{player}"


# Tournaments (``store.tournaments``). A tournament's id is a number, counted from 1.

def tournament_ids() -> str:
    """String: the last tournament id given."""
    return f"{PREFIX}:tournament-ids"


def tournament(tournament_id: str) -> str:
    """Hash: a tournament as created (``domain.tournaments.Tournament``'s fields) and the secret its sealed
    decks are dealt from (``deal_seed``), which no answer shows before its end."""
    return f"{PREFIX}:tournament:{tournament_id}"


def tournaments_starting() -> str:
    """Sorted set: tournament id → when it starts (ms): the upcoming ones are those still ahead."""
    return f"{PREFIX}:tournaments-starting"


def tournaments_ending() -> str:
    """Sorted set: tournament id → when it ends (ms): the running and the ended ones."""
    return f"{PREFIX}:tournaments-ending"


def tournaments_started() -> str:
    """Sorted set: the tournaments whose start was told (``tournament.started``) → when they started (ms)."""
    return f"{PREFIX}:tournaments-started"


def tournaments_closed() -> str:
    """Set: the tournaments closed: no game of theirs takes a move, their sealed decks may be shown.
    Kept for good (one short member a tournament): a tournament once closed stays closed."""
    return f"{PREFIX}:tournaments-closed"


def tournaments_ended() -> str:
    """Sorted set: the tournaments whose end was told with their final standings (``tournament.ended``)
    → when they ended (ms)."""
    return f"{PREFIX}:tournaments-ended"


def tournament_entrants(tournament_id: str) -> str:
    """Sorted set: a tournament's entrants → when they joined (ms)."""
    return f"{PREFIX}:tournament-entrants:{tournament_id}"


def tournament_attempts(tournament_id: str) -> str:
    """Hash: "<player>:<deal>" → the games the entrant started on that deal (deal 0: fresh decks)."""
    return f"{PREFIX}:tournament-attempts:{tournament_id}"


def tournament_playing(tournament_id: str) -> str:
    """Set: the tournament's games in play, for its close to forfeit (R19)."""
    return f"{PREFIX}:tournament-playing:{tournament_id}"


# Studios' sign-in (``store.accounts.links``): a player linked to a studio's account.

def external_link(issuer: str, subject: str) -> str:
    """String: the player a studio's account (its issuer's ``iss`` and the account's ``sub``) signs in as;
    made on the account's first use, kept as long as the player."""
    return f"{PREFIX}:link:{issuer}:{subject}"


def player_links(name: str) -> str:
    """Hash: issuer → the account (``sub``) of that studio the player is linked to."""
    return f"{PREFIX}:player-links:{name}"


# Erasure (``store.privacy.erasure``): a player's data erased on request, their kept places under a pseudonym.

def pseudonyms() -> str:
    """String: the last pseudonym number given (``deleted-<n>``), counted from 1."""
    return f"{PREFIX}:pseudonyms"


def erasures_begun() -> str:
    """Hash: player → their pseudonym, for each erasure begun and not finished (an erasure stopped midway is
    carried on from here): the one key that names an erased player, until their erasure ends."""
    return f"{PREFIX}:erasures-begun"


def erasure_log() -> str:
    """List: one JSON entry per erasure finished, newest first: when, by whom, the pseudonym; never the name."""
    return f"{PREFIX}:erasure-log"


def erased_name(name_hash: str) -> str:
    """String: set (expiring at the end of the cool-off) for a name erased: its keyed hash, never the name;
    the name may not be registered while it is there."""
    return f"{PREFIX}:erased-name:{name_hash}"


def erased_name_secret() -> str:
    """String: the key of the erased names' hashes."""
    return f"{PREFIX}:erased-name-secret"


def live_events(name: str) -> str:
    """Stream: the player's latest live events (``store.live``), their ids the SSE ids a stream resumes from;
    trimmed to about ``LIVE_KEPT`` entries, and gone a day after the last."""
    return f"{PREFIX}:live:{name}"


def live_channel() -> str:
    """Pub/sub channel: each batch of live events as written (``store.live``), for the API processes."""
    return f"{PREFIX}:live-channel"


def live_ticket(ticket_hash: str) -> str:
    """String, expiring: the player a single-use event-stream ticket (``store.live.tickets``) opens."""
    return f"{PREFIX}:live-ticket:{ticket_hash}"


def live_told() -> str:
    """Sorted set: ``<event type>:<tournament id>`` of each "in 10 minutes" notice sent (``store.live.soon``)
    → the moment it announced (ms), dropped once that moment has passed."""
    return f"{PREFIX}:live-told"


def live_zones(week: str) -> str:
    """Hash: player → the league zone (``domain.leagues.LeagueRules.zone``) they were last told of in ``week``
    (``store.leagues.zones``), kept until a day after the week ends."""
    return f"{PREFIX}:live-zones:{week}"


# Schedules (``store.schedules``): tournaments made from a cron expression, each occurrence once.

def schedule_ids() -> str:
    """String: the last schedule id given."""
    return f"{PREFIX}:schedule-ids"


def schedule(schedule_id: str) -> str:
    """Hash: a schedule as defined (``domain.schedules.Schedule``'s fields), its template as JSON, and
    ``made_ms``: the start of the latest occurrence made (what makes each occurrence once)."""
    return f"{PREFIX}:schedule:{schedule_id}"


def schedules() -> str:
    """Sorted set: schedule id → when it was defined (ms): every schedule, paused or not."""
    return f"{PREFIX}:schedules"


# Rewards (``store.rewards``): what a closed competition granted each player, and what is left to settle.

def inbox(player: str) -> str:
    """Hash: reward id → the reward as JSON (``domain.rewards.Reward``), each reward granted to the player."""
    return f"{PREFIX}:inbox:{player}"


def rewards_granted(source: str) -> str:
    """Hash: player → reward id, each reward a closed competition (``source``) granted: what a re-settling
    compares with."""
    return f"{PREFIX}:rewards-granted:{source}"


def rewards_flagged() -> str:
    """List: one JSON entry per claimed reward a re-ranking no longer grants, newest first, for moderators."""
    return f"{PREFIX}:rewards-flagged"


def settled() -> str:
    """Sorted set: the competitions settled (``tournament:<id>``, ``league:<week>``, ``season:<id>``) → when."""
    return f"{PREFIX}:settled"


def rewards_unsettled() -> str:
    """Sorted set: settled competitions a void, restore or re-verification re-ranked since → when: the
    workers' pass settles each again (``store.competitions``)."""
    return f"{PREFIX}:rewards-unsettled"


def league_week_told(week: str) -> str:
    """Sorted set: the week's cohorts whose end was told (``league.week_ended``) → their tier; kept as the
    week's cohorts are."""
    return f"{PREFIX}:league-week-told:{week}"


# Sanctions (``store.sanctions``): players banned or hidden by moderators, players' reports, the moderators' log.

def ban(player: str) -> str:
    """String: the player's ban (JSON: reason, moderator, when, until when or null). A key of its own, so the
    script that accepts a run reads it in the one ``MGET`` of its token and Idempotency-Key
    (``lua/accept_run.lua``)."""
    return f"{PREFIX}:ban:{player}"


def banned() -> str:
    """Sorted set: each banned player → when their ban ends (ms; +inf for a ban without end): the sweep asks
    it for the bans whose end has come (``store.sanctions.lift_ended_bans``)."""
    return f"{PREFIX}:banned"


def old_bans() -> str:
    """Hash of an older layout: player → their ban (JSON); read only by ``store.operations.migration``, which
    keeps each as ``ban`` and ``banned``."""
    return f"{PREFIX}:bans"


def hidden_players() -> str:
    """Hash: player → why and by whom they are hidden (JSON: reason, moderator, when)."""
    return f"{PREFIX}:hidden-players"


def moderation_log() -> str:
    """List: one JSON entry per moderator's action on a player (ban, unban, hide, unhide), newest first."""
    return f"{PREFIX}:moderation-log"


def report(report_id: str) -> str:
    """Hash: a player's report of a run or a player, and its decision once a moderator closed it."""
    return f"{PREFIX}:report:{report_id}"


def reports(status: str) -> str:
    """Sorted set: the reports with ``status`` (open, closed), scored by filing time (ms)."""
    return f"{PREFIX}:reports:{status}"


def reports_filed(player: str) -> str:
    """Sorted set: the reports ``player`` filed, scored by filing time (ms): theirs to read, and their rate."""
    return f"{PREFIX}:reports-filed:{player}"


def open_report(reporter: str, target: str) -> str:
    """String: the open report of ``reporter`` about ``target`` (``run:<id>`` or ``player:<name>``): one at a time."""
    return f"{PREFIX}:open-report:{reporter}:{target}"


# The public log (``store.log``): its leaves not yet in the archive, its size, and the players' pseudonyms' secrets.

def log_size() -> str:
    """String: how many leaves the public log has: the index the next one takes."""
    return f"{PREFIX}:log:size"


def log_leaves() -> str:
    """List: the public log's leaves not yet moved to the archive, oldest first: their canonical text."""
    return f"{PREFIX}:log:leaves"


def log_moved() -> str:
    """String: how many of the public log's leaves the archive holds: the index of the list's first leaf."""
    return f"{PREFIX}:log:moved"


def log_secrets() -> str:
    """Hash: player → the secret (hex) of their pseudonym in the public log, deleted by their erasure."""
    return f"{PREFIX}:log:secrets"


# Forced renames (``store.privacy.renaming``): a player's data moved from one name to another.

def renamed_players() -> str:
    """String: the last number a forced rename without a chosen name gave (``player-<n>``), counted from 1."""
    return f"{PREFIX}:renamed-players"


def renames_begun() -> str:
    """Hash: old name → new name, for each forced rename whose Redis step is done and whose archive step is not
    (a rename stopped between the two is carried on from here)."""
    return f"{PREFIX}:renames-begun"


# The moderators' desk (``store.desk``): its sessions, the cases taken, the runs waiting for re-verification.

def desk_session(session_hash: str) -> str:
    """Hash: a moderators' desk session (``store.desk``) under the SHA-256 of its cookie's id: its moderator,
    how they signed in, their token's hash (for a moderator token: revoking it ends the session), its CSRF
    token and when it began. It expires after the session's idle time, renewed by each request."""
    return f"{PREFIX}:desk-session:{session_hash}"


def desk_case(run_id: str) -> str:
    """String: the moderator on a run's case at the desk and since when (ms), ``<ms> <name>``; expires when the
    case is released by itself (``store.desk.CASE_HELD``)."""
    return f"{PREFIX}:desk-case:{run_id}"


def errored_runs() -> str:
    """Sorted set: runs that became ``error`` (their verification kept failing) → when (ms): the desk's queue
    of runs waiting for a moderator's re-verification. A run that has left ``error`` since is pruned as the
    queue reads it."""
    return f"{PREFIX}:errored-runs"
