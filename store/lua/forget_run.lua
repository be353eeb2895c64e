-- KEYS: run, audit, player-runs, runs, submission, then every hash naming the run that
-- holds a player's place on a board the run could be on (``store.boards.holder_keys``).
-- ARGV: run id, player, the number of audit entries read, then the run's fields as read
-- (name/value pairs).
-- Removes a run from Redis once the archive holds it (``store.retention``), unless it
-- changed since it was read or holds a board place now: 'ok', 'gone' (removed before),
-- 'changed' or 'holds'; the last two change nothing.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
for i = 6, #KEYS do
  if redis.call('HGET', KEYS[i], ARGV[2]) == ARGV[1] then
    return 'holds'
  end
end
if redis.call('XLEN', KEYS[2]) ~= tonumber(ARGV[3]) or redis.call('HLEN', KEYS[1]) * 2 ~= #ARGV - 3 then
  return 'changed'
end
for i = 4, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('GET', KEYS[5]) == ARGV[1] then
  redis.call('DEL', KEYS[5])
end
return 'ok'
