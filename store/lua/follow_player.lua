-- KEYS: the follower's following set. ARGV: the player followed, the time (ms),
-- the most players one may follow.
-- Follows a player unless the set is full: 1 (followed now or before: the
-- first time is kept), 0 when it holds the most already. One step, so two
-- requests at once cannot pass the cap between them.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 1
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
