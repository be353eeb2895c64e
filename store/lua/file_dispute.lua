--#include _audit
-- KEYS: run, dispute, open disputes. ARGV: dispute id, player, reason,
-- time (ms), the open status, the run id.
-- 0 if there is no such run.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'run_id', ARGV[6], 'player', ARGV[2],
  'reason', ARGV[3], 'status', ARGV[5], 'filed_ms', ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local now = snapshot(KEYS[1])
audit(KEYS[1], 'disputed', 'player', ARGV[2], ARGV[4], now, now,
  {dispute_id = ARGV[1], reason = ARGV[3]})
return 1
