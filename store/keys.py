"""Every Redis key name and Lua script of the service; nothing else spells a key.

All keys carry the hash tag ``{scoundrel}``, so the keys any one script or
transaction touches share a Redis Cluster slot (RQ's own queue keys are
RQ's business). The scripts make multi-key changes atomic and idempotent.
"""

from .packing import LATEST_MS, SCORE_OFFSET, TIME_SPAN

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

# KEYS: run, board, board-runs, daily-board, daily-runs, audit, pending runs,
# metrics, latency.
# ARGV: run id, packed rank key ("" when the run is not ranked), "1" for a
# run on its day's daily seed, the player, the worker's name, the time (ms),
# the verdict's metrics field, its latency bucket and latency (seconds), then
# the verdict's fields as alternating name/value pairs.
# A verdict is written once, with its audit entry and its counts: a run no
# longer pending is left alone, so a job that runs twice changes nothing
# (either way the run leaves the pending index). On a variant's board a
# verified run takes the player's place only if it ranks above the one
# there. On a daily board only the player's earliest-submitted verified run
# counts, whatever its score.
RECORD_VERDICT = _AUDIT_LUA + f"""
redis.call('ZREM', KEYS[7], ARGV[1])
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  return 0
end
local before = snapshot(KEYS[1])
local fields = {{}}
for i = 10, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
local after = snapshot(KEYS[1])
audit(KEYS[6], after.status, 'worker', ARGV[5], ARGV[6], before, after, {{}})
redis.call('HINCRBY', KEYS[8], ARGV[7], 1)
redis.call('HINCRBY', KEYS[9], ARGV[8], 1)
redis.call('HINCRBY', KEYS[9], 'count', 1)
redis.call('HINCRBYFLOAT', KEYS[9], 'sum', ARGV[9])
local packed = ARGV[2]
if packed == '' then
  return 1
end
local player = ARGV[4]
local current = redis.call('ZSCORE', KEYS[2], player)
if (not current) or tonumber(packed) > tonumber(current) then
  redis.call('ZADD', KEYS[2], packed, player)
  redis.call('HSET', KEYS[3], player, ARGV[1])
end
if ARGV[3] == '1' then
  -- the inverted submission time is the packed key's low bits: larger is earlier
  local held = redis.call('ZSCORE', KEYS[4], player)
  if (not held) or (tonumber(packed) % {TIME_SPAN}) > (tonumber(held) % {TIME_SPAN}) then
    redis.call('ZADD', KEYS[4], packed, player)
    redis.call('HSET', KEYS[5], player, ARGV[1])
  end
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

def board_pattern() -> str:
    """SCAN pattern matching every variant board."""
    return f"{PREFIX}:board:*"


def daily_board_pattern() -> str:
    """SCAN pattern matching every daily board."""
    return f"{PREFIX}:daily-board:*"


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
# ``packing``; exact, as it is below 2^53) and fetching the run ids with one
# HMGET.
_BOARD_LUA = f"""
local function with_runs(reply, places, runs_key)
  if #places == 0 then
    return reply
  end
  local players = {{}}
  for i = 1, #places, 2 do players[#players + 1] = places[i] end
  local runs = redis.call('HMGET', runs_key, unpack(players))
  for i = 1, #players do
    local packed = tonumber(places[2 * i])
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = math.floor(packed / {TIME_SPAN}) - {SCORE_OFFSET}
    reply[#reply + 1] = {LATEST_MS} - (packed % {TIME_SPAN})
    reply[#reply + 1] = runs[i] or ''
  end
  return reply
end
"""

# KEYS: board places, board runs. ARGV: first index, last index (0-based, best first).
# One round trip for a board page: the total, then each place as ``with_runs`` lists it.
BOARD_PAGE = _BOARD_LUA + """
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_runs({redis.call('ZCARD', KEYS[1])}, places, KEYS[2])
"""

# KEYS: board places, board runs. ARGV: player, places either side.
# One round trip for a player's place: their 0-based index (or nothing when
# unranked), then the window around it as BOARD_PAGE lists places.
BOARD_POSITION = _BOARD_LUA + """
local index = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not index then
  return {}
end
local first = math.max(0, index - tonumber(ARGV[2]))
local places = redis.call('ZREVRANGE', KEYS[1], first, index + tonumber(ARGV[2]), 'WITHSCORES')
return with_runs({index, first}, places, KEYS[2])
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


# Recomputes a player's places from all their runs, which the caller passes
# as KEYS[first..] in submission order (``player_runs``). The count is checked
# against ``player_runs`` first: a run submitted since the caller read the list
# makes the script answer 'stale' before changing anything, and the caller
# retries. The variant's board gets the best verified run by packed rank key;
# the day's board the player's earliest-submitted verified run on that date.
# A void run is not verified, so it never holds a place; a dealt game's run
# never holds one on these open boards.
_PLACES_LUA = f"""
local function complete(player_runs, first)
  return redis.call('ZCARD', player_runs) == #KEYS - first + 1
end
local function put(board, board_runs, player, packed, run_id)
  if packed then
    redis.call('ZADD', board, string.format('%.0f', packed), player)
    redis.call('HSET', board_runs, player, run_id)
  else
    redis.call('ZREM', board, player)
    redis.call('HDEL', board_runs, player)
  end
end
local function place(player, variant, day, board, board_runs, daily_board, daily_runs, first)
  local best, best_id, early_ms, early_packed, early_id
  for i = first, #KEYS do
    local r = redis.call('HMGET', KEYS[i], 'id', 'status', 'variant', 'daily', 'score', 'submitted_ms', 'origin')
    if r[2] == 'verified' and (not r[7] or r[7] == 'open') then
      local ms = tonumber(r[6])
      local packed = (tonumber(r[5]) + {SCORE_OFFSET}) * {TIME_SPAN} + ({LATEST_MS} - ms)
      if r[3] == variant and (best == nil or packed > best) then
        best, best_id = packed, r[1]
      end
      if day ~= '' and r[4] == day and (early_ms == nil or ms < early_ms) then
        early_ms, early_packed, early_id = ms, packed, r[1]
      end
    end
  end
  put(board, board_runs, player, best, best_id)
  if day ~= '' then put(daily_board, daily_runs, player, early_packed, early_id) end
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

# KEYS: dispute, open disputes, resolved disputes, run, board, board-runs,
# daily-board, daily-runs, audit, player-runs, then every run of the player.
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
if not complete(KEYS[10], 11) then
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
  local run = redis.call('HMGET', KEYS[4], 'player', 'variant', 'daily')
  place(run[1], run[2], run[3], KEYS[5], KEYS[6], KEYS[7], KEYS[8], 11)
end
audit(KEYS[9], event, 'moderator', ARGV[1], ARGV[4], before, snapshot(KEYS[4]),
  {dispute_id = dispute_id, note = ARGV[3]})
return 'ok'
"""

# KEYS: run, board, board-runs, daily-board, daily-runs, audit, player-runs,
# then every run of the player. ARGV: moderator, time (ms).
# Undoes a void: the run is back to its verdict and the player's places are
# recomputed. 'not_void' if the run is not void.
RESTORE_RUN = _AUDIT_LUA + _PLACES_LUA + """
if redis.call('HGET', KEYS[1], 'status') ~= 'void' then
  return 'not_void'
end
if not complete(KEYS[7], 8) then
  return 'stale'
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', redis.call('HGET', KEYS[1], 'voided_status'))
redis.call('HDEL', KEYS[1], 'voided_status')
local run = redis.call('HMGET', KEYS[1], 'player', 'variant', 'daily')
place(run[1], run[2], run[3], KEYS[2], KEYS[3], KEYS[4], KEYS[5], 8)
audit(KEYS[6], 'restored', 'moderator', ARGV[1], ARGV[2], before, snapshot(KEYS[1]), {})
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
if not complete(KEYS[7], 8) then
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
local run = redis.call('HMGET', KEYS[1], 'player', 'variant', 'daily')
place(run[1], run[2], run[3], KEYS[2], KEYS[3], KEYS[4], KEYS[5], 8)
if changed or ARGV[4] == '1' then
  audit(KEYS[6], 'reverified', ARGV[1], ARGV[2], ARGV[3], before, after, {changed = changed})
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


# Issue 10: dealt games (``store.games``); their scripts are in ``store/lua``.

def game(game_id: str) -> str:
    """Hash: a dealt game: its player, variant, seed, moves and their times, status.

    No expiry while it is played (an expiring game would be a free reroll);
    kept ``GAME_KEPT`` seconds once it ends (its run keeps the record).
    """
    return f"{PREFIX}:game:{game_id}"


def games_playing() -> str:
    """Sorted set: the id of every game being played → its last move's time (ms), for idle forfeits."""
    return f"{PREFIX}:games-playing"


def games_ending() -> str:
    """Sorted set: ended games whose run may not be accepted yet → when they ended (ms).

    The move that ends a game puts it here in the same script; accepting its
    run takes it out. The sweeper accepts the run of any game left here.
    """
    return f"{PREFIX}:games-ending"


def sealed_game(date: str, player: str) -> str:
    """String: the id of the player's sealed daily game of ``date`` (one a day)."""
    return f"{PREFIX}:sealed-game:{date}:{player}"


def sealed_secret() -> str:
    """String: the secret the sealed daily seeds are derived from when none is configured."""
    return f"{PREFIX}:sealed-secret"
