-- KEYS: the tournament, the tournaments by end, the closed tournaments, then each of its games in play.
-- ARGV: the tournament's id, the time (ms).
-- Moves a running tournament's end to now, in its hash, in the tournaments by end (the workers' pass
-- then settles and tells it as any that ended, store.tournaments.closing) and in each game in play's own
-- copy of it (a game closes at that copy, R19). Returns {'ended'} for one ended (or closed) already,
-- {'not_started'} before its start, {'ended_now'} once moved.
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends_ms'))
local at = tonumber(ARGV[2])
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 or ends <= at then
  return {'ended'}
end
if tonumber(redis.call('HGET', KEYS[1], 'starts_ms')) > at then
  return {'not_started'}
end
redis.call('HSET', KEYS[1], 'ends_ms', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
for i = 4, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') == 'playing' then
    redis.call('HSET', KEYS[i], 'tournament_ends_ms', ARGV[2])
  end
end
return {'ended_now'}
