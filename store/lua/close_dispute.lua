-- The last step of resolving a dispute (``store.disputes``), once its run's step is done.
-- KEYS: dispute, open disputes, resolved disputes: the service's.
-- ARGV: moderator, decision, note, time (ms), the open status, the resolved status.
-- 'resolved' if the dispute already is, changing nothing; else 'ok'.
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[5] then
  return 'resolved'
end
local dispute_id = redis.call('HGET', KEYS[1], 'id')
redis.call('HSET', KEYS[1], 'status', ARGV[6], 'decision', ARGV[2], 'note', ARGV[3], 'moderator', ARGV[1],
  'resolved_ms', ARGV[4])
redis.call('ZREM', KEYS[2], dispute_id)
redis.call('ZADD', KEYS[3], redis.call('HGET', KEYS[1], 'filed_ms'), dispute_id)
return 'ok'
