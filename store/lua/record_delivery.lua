-- KEYS: the webhook, its deliveries, the service's metrics.
-- ARGV: the attempt (JSON), how many attempts to keep, the counter it counts under.
-- Counts a delivery attempt and keeps it, newest first, unless the webhook
-- was deleted meanwhile (its deliveries went with it). 1 if kept, 0 if not.
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
return 1
