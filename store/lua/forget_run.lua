-- KEYS: run, player-runs, players with runs, the key naming the run under its
-- game (``keys.submission``, for a run whose id is not derived from its player
-- and game; else the run key again), then the key of every place the run could
-- hold (``store.boards.place_checks``).
-- ARGV: run id, player, the number n of places, n checks (one per place key: 'h'
-- the hash names the run for the player; 's<packed>' the player's rank key on
-- that sorted set is the run's; 'm<member>' the sorted set holds that member),
-- then the run's fields as read (name/value pairs).
-- Removes a run from Redis once the archive holds it (``store.retention``), unless it
-- changed since it was read or holds a board place now: 'ok', 'gone' (removed before),
-- 'changed' or 'holds'; the last two change nothing.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
local places = tonumber(ARGV[3])
for i = 1, places do
  local key, check = KEYS[4 + i], ARGV[3 + i]
  local kind, value = string.sub(check, 1, 1), string.sub(check, 2)
  if kind == 'h' and redis.call('HGET', key, ARGV[2]) == ARGV[1] then
    return 'holds'
  end
  if kind == 's' then
    local held = redis.call('ZSCORE', key, ARGV[2])
    if held and tonumber(held) == tonumber(value) then
      return 'holds'
    end
  end
  if kind == 'm' and redis.call('ZSCORE', key, value) then
    return 'holds'
  end
end
local first = 4 + places
if redis.call('HLEN', KEYS[1]) * 2 ~= #ARGV - first + 1 then
  return 'changed'
end
for i = first, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if #oldest == 0 then
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], oldest[2], ARGV[2])
end
if KEYS[4] ~= KEYS[1] and redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
return 'ok'
