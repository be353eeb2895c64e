--#include _audit
--#include _places
-- KEYS: run, board, board-runs, daily-board, daily-runs, audit, player-runs,
-- then every run of the player. ARGV: moderator, time (ms).
-- Undoes a void: the run is back to its verdict and the player's places are
-- recomputed. 'not_void' if the run is not void.
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
