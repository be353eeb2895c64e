-- KEYS: the log's leaves in Redis, the count of leaves moved to the archive. ARGV: that count as the mover
-- read it, how many leaves it wrote to the archive.
-- Drops the leaves the archive now holds from Redis, unless another mover did first (the count changed):
-- so two movers never drop a leaf twice. 1 if dropped, 0 if not.
if tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('LTRIM', KEYS[1], tonumber(ARGV[2]), -1)
redis.call('INCRBY', KEYS[2], tonumber(ARGV[2]))
return 1
