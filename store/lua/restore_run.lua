--#include _audit
-- KEYS: run, the runs of its shard whose places are to be recomputed.
-- ARGV: moderator, time (ms).
-- Undoes a void: the run is back to its verdict, and the player's places on its boards are owed a
-- recompute from this step on (``store.placing``). 'not_void' if the run is not void.
if redis.call('HGET', KEYS[1], 'status') ~= 'void' then
  return 'not_void'
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', redis.call('HGET', KEYS[1], 'voided_status'))
redis.call('HDEL', KEYS[1], 'voided_status')
redis.call('ZADD', KEYS[2], ARGV[2], string.match(KEYS[1], '[^:]+$'))
audit(KEYS[1], 'restored', 'moderator', ARGV[1], ARGV[2], before, snapshot(KEYS[1]), {})
return 'ok'
