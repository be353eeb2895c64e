"""Every Redis key name and Lua script of the service; nothing else spells a key.

All keys carry the hash tag ``{scoundrel}``, so the keys any one script or
transaction touches share a Redis Cluster slot (RQ's own queue keys are
RQ's business). The scripts make multi-key changes atomic and idempotent.
"""

from .packing import LADDER_GAMES, LADDER_OFFSET, LADDER_SPAN, LATEST_MS, SCORE_OFFSET, TIME_SPAN

PREFIX = "{scoundrel}"


def player(name: str) -> str:
    """Hash: the player's name, token hash and creation time."""
    return f"{PREFIX}:player:{name}"


def token(token_hash: str) -> str:
    """String: the name of the player whose token hashes to ``token_hash``."""
    return f"{PREFIX}:token:{token_hash}"


def run(run_id: str) -> str:
    """Hash: a submitted run, its verdict once there is one."""
    return f"{PREFIX}:run:{run_id}"


def player_runs(name: str) -> str:
    """Sorted set: a player's run ids scored by submission time (ms)."""
    return f"{PREFIX}:player-runs:{name}"


def submission(name: str, fingerprint: str) -> str:
    """String: the run id a player's (seed, variant, moves) was accepted as."""
    return f"{PREFIX}:submission:{name}:{fingerprint}"


def idempotency(name: str, key: str) -> str:
    """String: ``run_id fingerprint`` for a player's Idempotency-Key."""
    return f"{PREFIX}:idempotency:{name}:{key}"


def board(variant: str) -> str:
    """Sorted set: player → packed (score, submission time) of their best verified run."""
    return f"{PREFIX}:board:{variant}"


def board_runs(variant: str) -> str:
    """Hash: player → the run id that holds their place on the variant's board."""
    return f"{PREFIX}:board-runs:{variant}"


def daily_board(date: str) -> str:
    """Sorted set: player → packed score of their first verified run on the day's seed."""
    return f"{PREFIX}:daily-board:{date}"


def daily_runs(date: str) -> str:
    """Hash: player → the run id that holds their place on the day's board."""
    return f"{PREFIX}:daily-runs:{date}"


def dealt_board(variant: str) -> str:
    """Sorted set: player → packed rank key of their best verified dealt game of a variant."""
    return f"{PREFIX}:dealt-board:{variant}"


def dealt_runs(variant: str) -> str:
    """Hash: player → the run id that holds their place on the variant's dealt board."""
    return f"{PREFIX}:dealt-runs:{variant}"


def sealed_board(date: str) -> str:
    """Sorted set: player → packed rank key of their first verified game on the day's sealed seed."""
    return f"{PREFIX}:sealed-board:{date}"


def sealed_runs(date: str) -> str:
    """Hash: player → the run id that holds their place on the day's sealed board."""
    return f"{PREFIX}:sealed-runs:{date}"


def seed_board(variant: str, seed: str) -> str:
    """Sorted set: player → packed rank key of their best verified open run on one (variant, seed).

    No run-id hash beside it (one key per deal played, so each byte counts):
    the run behind a place is found from the player's run list at the
    place's submission time (``store.boards``).
    """
    return f"{PREFIX}:seed-board:{variant}:{seed}"


def ladder(variant: str) -> str:
    """Sorted set: player → packed ladder key (sum of their last games, then when they finished the last)."""
    return f"{PREFIX}:ladder:{variant}"


def ladder_window(variant: str, player: str) -> str:
    """Sorted set: ``<run id>:<score>`` of the player's latest verified dealt games, by submission time (ms)."""
    return f"{PREFIX}:ladder-window:{variant}:{player}"


def ladder_games(variant: str) -> str:
    """Hash: player → how many verified dealt games of the variant they have."""
    return f"{PREFIX}:ladder-games:{variant}"


def daily_secret() -> str:
    """String: the secret the daily seeds are derived from when none is configured."""
    return f"{PREFIX}:daily-secret"


# Lua shared by the moderation scripts. ``snapshot`` is a run's status and
# verdict as its audit entries show them before and after a change (a void
# run keeps its verdict under ``voided_status``); ``audit`` appends one entry.
_AUDIT_LUA = """
local function present(value)
  if value and value ~= '' then return value end
  return cjson.null
end
local function snapshot(run_key)
  local r = redis.call('HMGET', run_key, 'status', 'outcome', 'score', 'health', 'error', 'voided_status')
  local code = cjson.null
  if r[5] and r[5] ~= '' then code = cjson.decode(r[5]).code end
  local view = {status = present(r[1]), outcome = present(r[2]), score = cjson.null, health = cjson.null,
                error = code}
  if present(r[3]) ~= cjson.null then view.score = tonumber(r[3]) end
  if present(r[4]) ~= cjson.null then view.health = tonumber(r[4]) end
  if r[1] == 'void' then view.voided_status = present(r[6]) end
  return view
end
local function audit(stream, event, actor_kind, actor, at, before, after, detail)
  redis.call('XADD', stream, '*', 'event', event, 'actor_kind', actor_kind, 'actor', actor, 'at', at,
    'before', cjson.encode(before), 'after', cjson.encode(after), 'detail', cjson.encode(detail))
end
"""

# Lua shared by the scripts that place runs on boards: the one Lua home of
# which boards a run counts on and of the ranking rules.
#
# ``boards_of`` names the boards a verified run counts on, from its fields
# (``RUN_FIELDS``): an open run (no ``origin``) on its variant's board, its
# day's daily board (a run on a daily seed) and its deal's seed board; a
# dealt run on its variant's dealt board and ladder, and on its date's sealed
# board if it is the sealed daily. Two runs count on the same board when the
# names match. The scripts get the keys of every kind of board the run could
# count on, always in one order (``store.places.board_keys``): best (variant
# or dealt board: places, runs), first (daily or sealed board: places, runs),
# seed board, ladder, ladder window, ladder games; those the run does not
# count on are left alone.
#
# A best board holds each player's best verified run (higher score, then
# earlier submission); a first board their earliest-submitted verified run,
# whatever its score; a seed board is a best board with no run-id hash. The
# ladder holds, for players with at least LADDER_GAMES verified dealt games,
# the sum of their latest LADDER_GAMES games' scores (by submission time,
# then run id), packed with when the latest of them ended (``packing``); the
# window keeps those games as ``<run id>:<score>`` by submission ms and the
# games hash counts them all. A void run is not verified, so it counts on no
# board: voiding a game of the window brings the one before back into it.
_PLACEMENT_LUA = f"""
local RUN_FIELDS = {{'id', 'status', 'variant', 'seed', 'score', 'submitted_ms', 'origin', 'daily', 'challenge',
                    'date', 'player'}}
local function run_fields(run_key)
  local r = redis.call('HMGET', run_key, unpack(RUN_FIELDS))
  return {{id = r[1], status = r[2], variant = r[3], seed = r[4], score = tonumber(r[5]), ms = tonumber(r[6]),
          origin = r[7] or 'open', daily = r[8] or '', challenge = r[9] or '', date = r[10] or '', player = r[11]}}
end
local function boards_of(r)
  if r.origin == 'dealt' then
    local day = false
    if r.challenge == 'daily' and r.date ~= '' then day = 'sealed:' .. r.date end
    return {{best = 'dealt:' .. r.variant, first = day, seed = false, ladder = r.variant}}
  end
  local day = false
  if r.daily ~= '' then day = 'daily:' .. r.daily end
  return {{best = 'open:' .. r.variant, first = day, seed = r.variant .. ':' .. r.seed, ladder = false}}
end
local function pack_rank(score, ms)
  return (score + {SCORE_OFFSET}) * {TIME_SPAN} + ({LATEST_MS} - ms)
end
local function outranks(packed, held)
  return held == nil or packed > held
end
local function earlier(packed, held)
  -- the inverted submission time is the rank key's low bits: larger is earlier
  return held == nil or (packed % {TIME_SPAN}) > (held % {TIME_SPAN})
end
-- The player's place on a board: ``packed`` held by ``run_id``, or no place (nil).
-- ``board_runs`` is nil for a seed board.
local function put(board, board_runs, player, packed, run_id)
  if packed then
    redis.call('ZADD', board, string.format('%.0f', packed), player)
    if board_runs then redis.call('HSET', board_runs, player, run_id) end
  else
    redis.call('ZREM', board, player)
    if board_runs then redis.call('HDEL', board_runs, player) end
  end
end
-- A newly verified run takes the player's place if it ``wins`` against the one held.
local function offer(board, board_runs, player, packed, run_id, wins)
  local held = redis.call('ZSCORE', board, player)
  if wins(packed, tonumber(held)) then  -- tonumber(false): nil, no place held
    put(board, board_runs, player, packed, run_id)
  end
end
-- The player's ladder place from their window: ranked with LADDER_GAMES games, else off.
local function rank_ladder(ladder, window, player)
  local games = redis.call('ZRANGE', window, 0, -1, 'WITHSCORES')
  if #games < 2 * {LADDER_GAMES} then
    redis.call('ZREM', ladder, player)
    return
  end
  local total = 0
  for i = 1, #games, 2 do total = total + tonumber(string.match(games[i], ':(.*)$')) end
  local latest_s = math.floor(tonumber(games[#games]) / 1000)
  local packed = (total + {LADDER_OFFSET}) * {LADDER_SPAN} + ({LADDER_SPAN} - 1 - latest_s)
  redis.call('ZADD', ladder, string.format('%.0f', packed), player)
end
-- A newly verified dealt game: counted, into the window if among the latest, the place recomputed.
local function ladder_add(ladder, window, games, r)
  redis.call('HINCRBY', games, r.player, 1)
  redis.call('ZADD', window, string.format('%.0f', r.ms), r.id .. ':' .. r.score)
  redis.call('ZREMRANGEBYRANK', window, 0, -{LADDER_GAMES + 1})
  rank_ladder(ladder, window, r.player)
end
-- The ladder from all of a player's verified dealt games of the variant ({{ms, id, score}} each).
local function ladder_set(ladder, window, games, player, played)
  table.sort(played, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  redis.call('DEL', window)
  for i = math.max(1, #played - {LADDER_GAMES} + 1), #played do
    redis.call('ZADD', window, string.format('%.0f', played[i][1]), played[i][2] .. ':' .. played[i][3])
  end
  if #played > 0 then
    redis.call('HSET', games, player, #played)
  else
    redis.call('HDEL', games, player)
  end
  rank_ladder(ladder, window, player)
end
-- A newly verified run on the boards it counts on; ``b`` is the first of the eight board keys.
local function place_verified(r, b)
  local boards = boards_of(r)
  local packed = pack_rank(r.score, r.ms)
  offer(KEYS[b], KEYS[b + 1], r.player, packed, r.id, outranks)
  if boards.first then offer(KEYS[b + 2], KEYS[b + 3], r.player, packed, r.id, earlier) end
  if boards.seed then offer(KEYS[b + 4], nil, r.player, packed, r.id, outranks) end
  if boards.ladder then ladder_add(KEYS[b + 5], KEYS[b + 6], KEYS[b + 7], r) end
end
"""

# KEYS: run, audit, pending runs, metrics, latency, then the eight board
# keys (see _PLACEMENT_LUA).
# ARGV: run id, the worker's name, the time (ms), the verdict's metrics
# field, its latency bucket and latency (seconds), then the verdict's fields
# as alternating name/value pairs.
# A verdict is written once, with its audit entry and its counts: a run no
# longer pending is left alone, so a job that runs twice changes nothing
# (either way the run leaves the pending index). A verified run is offered
# to every board it counts on.
RECORD_VERDICT = _AUDIT_LUA + _PLACEMENT_LUA + """
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  return 0
end
local before = snapshot(KEYS[1])
local fields = {}
for i = 7, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
local after = snapshot(KEYS[1])
audit(KEYS[2], after.status, 'worker', ARGV[2], ARGV[3], before, after, {})
redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
redis.call('HINCRBY', KEYS[5], ARGV[5], 1)
redis.call('HINCRBY', KEYS[5], 'count', 1)
redis.call('HINCRBYFLOAT', KEYS[5], 'sum', ARGV[6])
if after.status == 'verified' then
  place_verified(run_fields(KEYS[1]), 6)
end
return 1
"""

# KEYS: idempotency key (any key when there is none), submission, run,
# player runs, all runs, audit, pending runs, metrics.
# ARGV: run id, fingerprint, submission time (ms), the Idempotency-Key's
# lifetime in seconds ("" when there is none), the number n of the run's
# field pairs, the run's 2n field names and values, then the audit entry's
# fields as name/value pairs.
# Accepts a submission once: {'new'}, {'existing', run id} when the player
# already submitted this game (or this Idempotency-Key for it), or
# {'conflict'} when the Idempotency-Key names a different game. It runs in
# the same MULTI as the run's RQ job, which DROP_UNCLAIMED_JOB then removes
# unless a run was created for it.
ACCEPT_RUN = """
local existing = false
if ARGV[4] ~= '' then
  local held = redis.call('GET', KEYS[1])
  if held then
    local space = string.find(held, ' ', 1, true)
    if string.sub(held, space + 1) ~= ARGV[2] then
      return {'conflict'}
    end
    existing = string.sub(held, 1, space - 1)
  end
end
if not existing then
  existing = redis.call('GET', KEYS[2])
end
if existing then
  redis.call('HINCRBY', KEYS[8], 'submissions:duplicate', 1)
  return {'existing', existing}
end
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[4])
end
local pairs_end = 5 + 2 * tonumber(ARGV[5])
local fields = {}
for i = 6, pairs_end do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[3], unpack(fields))
local entry = {}
for i = pairs_end + 1, #ARGV do entry[#entry + 1] = ARGV[i] end
redis.call('XADD', KEYS[6], '*', unpack(entry))
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[7], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[8], 'submissions:accepted', 1)
return {'new'}
"""

# KEYS: an RQ job's key, its queue's key (both as RQ names them), then the
# runs the job was queued for. ARGV: the job id.
# Removes a job queued in the same MULTI as ACCEPT_RUN when none of its runs
# was created for it (every one was a duplicate): no job without a run.
DROP_UNCLAIMED_JOB = """
for i = 3, #KEYS do
  if redis.call('HGET', KEYS[i], 'job') == ARGV[1] then
    return 0
  end
end
redis.call('DEL', KEYS[1])
redis.call('LREM', KEYS[2], 0, ARGV[1])
return 1
"""

# KEYS: player, token. ARGV: name, token hash, creation time (ms).
# Claims the name and indexes the token in one step: 0 if the name is taken.
CREATE_PLAYER = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'token_hash', ARGV[2], 'created_ms', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
return 1
"""


def moderator(name: str) -> str:
    """Hash: a moderator's name, token hash and creation time."""
    return f"{PREFIX}:moderator:{name}"


def moderator_token(token_hash: str) -> str:
    """String: the name of the moderator whose token hashes to ``token_hash``.

    Apart from players' tokens, so a player's token can never act as a moderator's.
    """
    return f"{PREFIX}:moderator-token:{token_hash}"


def moderators() -> str:
    """Set: every moderator's name."""
    return f"{PREFIX}:moderators"


# KEYS: moderator, moderator-token, moderators. ARGV: name, token hash, time (ms).
# 0 if the name is taken.
CREATE_MODERATOR = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'token_hash', ARGV[2], 'created_ms', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
"""


# Issue 5: nothing lost when workers crash, counters that outlive processes.

def pending_runs() -> str:
    """Sorted set: run id → when it was last queued (ms), for every run still pending.

    Added in the same MULTI that accepts a run; the sweeper re-queues what
    stays here too long and drops what has a verdict.
    """
    return f"{PREFIX}:pending-runs"


def sweep_lock() -> str:
    """String: held (with an expiry) by the one worker sweeping the pending runs right now."""
    return f"{PREFIX}:sweep-lock"


def rate_limit_prefix() -> str:
    """Prefix of Flask-Limiter's counters (it spells the rest of their names itself)."""
    return f"{PREFIX}:rate"


def metrics() -> str:
    """Hash: counter name (with its labels) → count, written by the API and the workers alike."""
    return f"{PREFIX}:metrics"


def latency() -> str:
    """Hash: verification latency histogram: bucket bound → count, plus ``sum`` and ``count``."""
    return f"{PREFIX}:latency"


# KEYS: run, pending-runs. ARGV: run id, cutoff (ms), now (ms), most re-queues.
# Claims one stale pending run for re-queueing, so that of several sweepers
# only one re-queues it: its time in pending-runs moves to now. Returns
# 0 when there is nothing to do (the entry is gone, fresh, or the run has a
# verdict: then the entry is dropped), -1 when the run was re-queued too
# often already (the caller marks it ``error``), else the re-queue count.
CLAIM_STALE_RUN = """
local queued = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not queued or tonumber(queued) > tonumber(ARGV[2]) then
  return 0
end
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
local requeues = redis.call('HINCRBY', KEYS[1], 'requeues', 1)
if requeues > tonumber(ARGV[4]) then
  return -1
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return requeues
"""

# KEYS: run, pending-runs, metrics, audit. ARGV: run id, error JSON, time (ms),
# the worker's name.
# A pending run whose verification keeps failing becomes ``error``, with
# the reason and an ``errored`` audit entry; a run with a verdict is left
# alone. 1 if the run changed.
MARK_ERROR = _AUDIT_LUA + """
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', 'error', 'error', ARGV[2], 'verified_ms', ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[3], 'errors', 1)
audit(KEYS[4], 'errored', 'worker', ARGV[4], ARGV[3], before, snapshot(KEYS[1]), cjson.decode(ARGV[2]))
return 1
"""

# KEYS: run, pending-runs, audit. ARGV: run id, time (ms), the moderator.
# A moderator's re-queue: an ``error`` run is pending again, its re-queue
# count reset, with a ``requeued`` audit entry. 0 if the run is not in ``error``.
REQUEUE_RUN = _AUDIT_LUA + """
if redis.call('HGET', KEYS[1], 'status') ~= 'error' then
  return 0
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', 'pending', 'error', '', 'verified_ms', '', 'requeues', 0)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
audit(KEYS[3], 'requeued', 'moderator', ARGV[3], ARGV[2], before, snapshot(KEYS[1]), {})
return 1
"""

# Lua shared by the board reads: appends (player, score, submission time in
# ms, run id) per place to ``reply``, unpacking the rank key (see
# ``packing``; exact, as it is below 2^53). The run ids come from the
# board's hash, one HMGET, or for a seed board (``deal``: no hash) from each
# player's run list: their run submitted at the place's time on that
# variant and seed, open, verified, with that score (a batch's runs share
# their submission time, so there may be several to look at).
_BOARD_LUA = f"""
local function seed_run_id(player, score, ms, deal)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', deal.player_runs .. player, ms, ms)) do
    local r = redis.call('HMGET', deal.run .. id, 'variant', 'seed', 'status', 'score', 'origin')
    if r[1] == deal.variant and r[2] == deal.seed and r[3] == 'verified' and tonumber(r[4]) == score
        and not r[5] then
      return id
    end
  end
  return ''
end
local function with_runs(reply, places, runs_key, deal)
  if #places == 0 then
    return reply
  end
  local players = {{}}
  for i = 1, #places, 2 do players[#players + 1] = places[i] end
  local runs = {{}}
  if runs_key then runs = redis.call('HMGET', runs_key, unpack(players)) end
  for i = 1, #players do
    local packed = tonumber(places[2 * i])
    local score = math.floor(packed / {TIME_SPAN}) - {SCORE_OFFSET}
    local ms = string.format('%.0f', {LATEST_MS} - (packed % {TIME_SPAN}))
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = score
    reply[#reply + 1] = ms
    if runs_key then
      reply[#reply + 1] = runs[i] or ''
    else
      reply[#reply + 1] = seed_run_id(players[i], score, ms, deal)
    end
  end
  return reply
end
"""

# KEYS: board places, then its run-id hash (none for a seed board). ARGV:
# first index, last index (0-based, best first), then for a seed board its
# variant, its seed and the prefixes of the player-runs and run keys.
# One round trip for a board page: the total, then each place as ``with_runs`` lists it.
BOARD_PAGE = _BOARD_LUA + """
local deal = {variant = ARGV[3], seed = ARGV[4], player_runs = ARGV[5], run = ARGV[6]}
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_runs({redis.call('ZCARD', KEYS[1])}, places, KEYS[2], deal)
"""

# KEYS: as BOARD_PAGE. ARGV: player, places either side, then as BOARD_PAGE.
# One round trip for a player's place: their 0-based index (or nothing when
# unranked), then the window around it as BOARD_PAGE lists places.
BOARD_POSITION = _BOARD_LUA + """
local deal = {variant = ARGV[3], seed = ARGV[4], player_runs = ARGV[5], run = ARGV[6]}
local index = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not index then
  return {}
end
local first = math.max(0, index - tonumber(ARGV[2]))
local places = redis.call('ZREVRANGE', KEYS[1], first, index + tonumber(ARGV[2]), 'WITHSCORES')
return with_runs({index, first}, places, KEYS[2], deal)
"""

# Lua shared by the ladder reads: appends (player, sum of their last games'
# scores, the latest game's submission ms and run id, how many games they
# have) per place to ``reply``; the latest game is the top of the player's
# ladder window (members ``<run id>:<score>`` by submission ms).
_LADDER_LUA = f"""
local function with_games(reply, places, games_key, window_prefix)
  if #places == 0 then
    return reply
  end
  local players = {{}}
  for i = 1, #places, 2 do players[#players + 1] = places[i] end
  local games = redis.call('HMGET', games_key, unpack(players))
  for i = 1, #players do
    local latest = redis.call('ZREVRANGE', window_prefix .. players[i], 0, 0, 'WITHSCORES')
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = math.floor(tonumber(places[2 * i]) / {LADDER_SPAN}) - {LADDER_OFFSET}
    reply[#reply + 1] = latest[2] or ''
    reply[#reply + 1] = string.match(latest[1] or '', '^[^:]*')
    reply[#reply + 1] = games[i] or '0'
  end
  return reply
end
"""

# KEYS: ladder, ladder games. ARGV: first index, last index, the ladder
# window key's prefix (the player's name completes it).
LADDER_PAGE = _LADDER_LUA + """
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_games({redis.call('ZCARD', KEYS[1])}, places, KEYS[2], ARGV[3])
"""

# KEYS: as LADDER_PAGE. ARGV: player, places either side, the window prefix.
LADDER_POSITION = _LADDER_LUA + """
local index = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not index then
  return {}
end
local first = math.max(0, index - tonumber(ARGV[2]))
local places = redis.call('ZREVRANGE', KEYS[1], first, index + tonumber(ARGV[2]), 'WITHSCORES')
return with_games({index, first}, places, KEYS[2], ARGV[3])
"""


def runs() -> str:
    """Sorted set: every run id scored by submission time (ms), for bulk re-verification."""
    return f"{PREFIX}:runs"


def audit(run_id: str) -> str:
    """Stream: the run's append-only audit log, one entry per change, oldest first."""
    return f"{PREFIX}:audit:{run_id}"


def dispute(dispute_id: str) -> str:
    """Hash: a player's dispute of a run, and its resolution once there is one."""
    return f"{PREFIX}:dispute:{dispute_id}"


def disputes(status: str) -> str:
    """Sorted set: dispute ids with ``status`` (open, resolved) scored by filing time (ms)."""
    return f"{PREFIX}:disputes:{status}"


# Recomputes a player's places on the boards one run counts on, from all
# their runs, which the caller passes as KEYS[first..] in submission order
# (``player_runs``). The count is checked against ``player_runs`` first: a
# run submitted since the caller read the list makes the script answer
# 'stale' before changing anything, and the caller retries. Each board gets
# what ``_PLACEMENT_LUA``'s rules give for the player's verified runs that
# count on it.
_PLACES_LUA = _PLACEMENT_LUA + """
local function complete(player_runs, first)
  return redis.call('ZCARD', player_runs) == #KEYS - first + 1
end
-- ``run_key``: the run whose boards to recompute; ``b``: the first of the eight board keys.
local function place(run_key, b, first)
  local mine = run_fields(run_key)
  local boards = boards_of(mine)
  local best, best_id, early, early_id, top, top_id
  local played = {}
  for i = first, #KEYS do
    local r = run_fields(KEYS[i])
    if r.status == 'verified' then
      local theirs = boards_of(r)
      local packed = pack_rank(r.score, r.ms)
      if theirs.best == boards.best and outranks(packed, best) then best, best_id = packed, r.id end
      if boards.first and theirs.first == boards.first and earlier(packed, early) then
        early, early_id = packed, r.id
      end
      if boards.seed and theirs.seed == boards.seed and outranks(packed, top) then top, top_id = packed, r.id end
      if boards.ladder and theirs.ladder == boards.ladder then played[#played + 1] = {r.ms, r.id, r.score} end
    end
  end
  put(KEYS[b], KEYS[b + 1], mine.player, best, best_id)
  if boards.first then put(KEYS[b + 2], KEYS[b + 3], mine.player, early, early_id) end
  if boards.seed then put(KEYS[b + 4], nil, mine.player, top, top_id) end
  if boards.ladder then ladder_set(KEYS[b + 5], KEYS[b + 6], KEYS[b + 7], mine.player, played) end
end
"""

# KEYS: run, dispute, open disputes, audit. ARGV: dispute id, player, reason, time (ms).
# 0 if there is no such run.
FILE_DISPUTE = _AUDIT_LUA + """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'run_id', redis.call('HGET', KEYS[1], 'id'), 'player', ARGV[2],
  'reason', ARGV[3], 'status', 'open', 'filed_ms', ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local now = snapshot(KEYS[1])
audit(KEYS[4], 'disputed', 'player', ARGV[2], ARGV[4], now, now, {dispute_id = ARGV[1], reason = ARGV[3]})
return 1
"""

# KEYS: dispute, open disputes, resolved disputes, run, audit, the eight
# board keys (see _PLACEMENT_LUA), player-runs, then every run of the player.
# ARGV: moderator, decision (uphold, void), note, time (ms).
# 'resolved' if the dispute already is; 'pending' to void a run with no verdict yet.
RESOLVE_DISPUTE = _AUDIT_LUA + _PLACES_LUA + """
if redis.call('HGET', KEYS[1], 'status') ~= 'open' then
  return 'resolved'
end
local status = redis.call('HGET', KEYS[4], 'status')
if ARGV[2] == 'void' and status == 'pending' then
  return 'pending'
end
if not complete(KEYS[14], 15) then
  return 'stale'
end
local before = snapshot(KEYS[4])
local dispute_id = redis.call('HGET', KEYS[1], 'id')
redis.call('HSET', KEYS[1], 'status', 'resolved', 'decision', ARGV[2], 'note', ARGV[3], 'moderator', ARGV[1],
  'resolved_ms', ARGV[4])
redis.call('ZREM', KEYS[2], dispute_id)
redis.call('ZADD', KEYS[3], redis.call('HGET', KEYS[1], 'filed_ms'), dispute_id)
local event = 'upheld'
if ARGV[2] == 'void' then
  event = 'voided'
  if status ~= 'void' then
    redis.call('HSET', KEYS[4], 'status', 'void', 'voided_status', status)
  end
  place(KEYS[4], 6, 15)
end
audit(KEYS[5], event, 'moderator', ARGV[1], ARGV[4], before, snapshot(KEYS[4]),
  {dispute_id = dispute_id, note = ARGV[3]})
return 'ok'
"""

# KEYS: run, audit, the eight board keys (see _PLACEMENT_LUA), player-runs,
# then every run of the player. ARGV: moderator, time (ms).
# Undoes a void: the run is back to its verdict and the player's places are
# recomputed. 'not_void' if the run is not void.
RESTORE_RUN = _AUDIT_LUA + _PLACES_LUA + """
if redis.call('HGET', KEYS[1], 'status') ~= 'void' then
  return 'not_void'
end
if not complete(KEYS[11], 12) then
  return 'stale'
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', redis.call('HGET', KEYS[1], 'voided_status'))
redis.call('HDEL', KEYS[1], 'voided_status')
place(KEYS[1], 3, 12)
audit(KEYS[2], 'restored', 'moderator', ARGV[1], ARGV[2], before, snapshot(KEYS[1]), {})
return 'ok'
"""

# KEYS: as RESTORE_RUN. ARGV: actor kind, actor, time (ms), "1" to log an
# unchanged verdict too, then the new verdict's fields as name/value pairs.
# Writes the current engine's verdict over the stored one (a void run stays
# void with its verdict under ``voided_status``), recomputes the player's
# places and logs 'reverified' with whether the verdict changed (status,
# outcome, score, health or error code). Running it twice changes nothing
# more. 'pending' for a run the worker has not judged yet; else 'changed'
# or 'unchanged'.
REVERIFY_RUN = _AUDIT_LUA + _PLACES_LUA + """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'pending' then
  return 'pending'
end
if not complete(KEYS[11], 12) then
  return 'stale'
end
local before = snapshot(KEYS[1])
for i = 5, #ARGV, 2 do
  local name = ARGV[i]
  if name == 'status' and status == 'void' then name = 'voided_status' end
  redis.call('HSET', KEYS[1], name, ARGV[i + 1])
end
local after = snapshot(KEYS[1])
local changed = false
for _, field in ipairs({'status', 'voided_status', 'outcome', 'score', 'health', 'error'}) do
  if before[field] ~= after[field] then changed = true end
end
place(KEYS[1], 3, 12)
if changed or ARGV[4] == '1' then
  audit(KEYS[2], 'reverified', ARGV[1], ARGV[2], ARGV[3], before, after, {changed = changed})
end
if changed then return 'changed' end
return 'unchanged'
"""

# KEYS: a token's key. Answers the player it names and that player's stored
# token hash (for the constant-time comparison), or nil: authentication in
# one round trip. The player's key is only known here, from the token; it
# carries the same hash tag, so it is in the same Cluster slot.
TOKEN_OWNER = f"""
local name = redis.call('GET', KEYS[1])
if not name then
  return nil
end
return {{name, redis.call('HGET', '{player("")}' .. name, 'token_hash') or ''}}
"""
