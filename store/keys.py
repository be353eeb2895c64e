"""Every Redis key name and Lua script of the service; nothing else spells a key.

All keys carry the hash tag ``{scoundrel}``, so the keys any one script or
transaction touches share a Redis Cluster slot (RQ's own queue keys are
RQ's business). The scripts make multi-key changes atomic and idempotent.
"""

from .packing import TIME_SPAN

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


# KEYS: run, board, board-runs, daily-board, daily-runs.
# ARGV: run id, packed rank key ("" when the run is not ranked), "1" for a
# run on its day's daily seed, the player, then the verdict's fields as
# alternating name/value pairs.
# A verdict is written once: a run no longer pending is left alone, so a job
# that runs twice changes nothing. On a variant's board a verified run takes
# the player's place only if it ranks above the one there. On a daily board
# only the player's earliest-submitted verified run counts, whatever its score.
RECORD_VERDICT = f"""
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  return 0
end
local fields = {{}}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
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
