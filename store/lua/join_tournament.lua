-- KEYS: the tournament's entrants, the closed tournaments.
-- ARGV: the tournament's id, the player, the time (ms), its end (ms), its cap on entrants ("" for none).
-- Joins the player to the tournament: {'joined', 1} newly, {'joined', 0} if they had; {'ended'} once
-- it is closed or past its end, {'full'} when it has as many entrants as it takes.
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 or tonumber(ARGV[3]) >= tonumber(ARGV[4]) then
  return {'ended'}
end
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  return {'joined', 0}
end
if ARGV[5] ~= '' and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then
  return {'full'}
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return {'joined', 1}
