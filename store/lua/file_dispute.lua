-- KEYS: the dispute, the open disputes: the service's.
-- ARGV: dispute id, player, reason, time (ms), the open status, the run id.
-- Files a dispute, open, unless it is filed already: 1, or 0 if it was.
-- The entry on its run's audit log is the next step
-- (note_dispute_filed.lua, in the run's shard: store.disputes).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'run_id', ARGV[6], 'player', ARGV[2],
  'reason', ARGV[3], 'status', ARGV[5], 'filed_ms', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 1
