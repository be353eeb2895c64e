--#include _audit
--#include _places
-- KEYS: run, the eight board keys (``_placement``), player-runs, then
-- every run of the player. ARGV: moderator, time (ms).
-- Undoes a void: the run is back to its verdict and the player's places are
-- recomputed. 'not_void' if the run is not void.
if redis.call('HGET', KEYS[1], 'status') ~= 'void' then
  return 'not_void'
end
if not complete(KEYS[10], 11) then
  return 'stale'
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', redis.call('HGET', KEYS[1], 'voided_status'))
redis.call('HDEL', KEYS[1], 'voided_status')
place(KEYS[1], 2, 11)
audit(KEYS[1], 'restored', 'moderator', ARGV[1], ARGV[2], before, snapshot(KEYS[1]), {})
return 'ok'
