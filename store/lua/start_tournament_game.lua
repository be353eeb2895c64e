-- KEYS: the tournament's entrants, its attempts, the closed tournaments, the player's games in play
-- (slot → id), the game, games-playing, the tournament's games in play, metrics.
-- ARGV: the tournament's id, the player, the time (ms), its start and its end (ms), "1" if it takes
-- only players who joined, its cap on entrants ("" for none), the attempts field of the game's deal
-- ("<player>:<deal>"), the attempts the caller read there, the game's id, its slot, then the game's
-- fields as name/value pairs.
-- Starts a game of the tournament: {'new'}. Refused, changing nothing: {'ended'} once it is closed or
-- past its end, {'not_started'} before its start, {'not_joined'} for a player who did not join one
-- that requires it, {'full'} for one who did not and may not, {'existing', id} with a game of it in
-- play, {'attempts'} when the deal's attempts are no longer what the caller read (a racing start:
-- the caller reads them again). A player who did not join one that does not require it joins here.
-- The game is stored as start_game.lua stores one, listed in the tournament's games in play (for
-- its close, R19) and counted as an attempt.
local at = tonumber(ARGV[3])
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 or at >= tonumber(ARGV[5]) then
  return {'ended'}
end
if at < tonumber(ARGV[4]) then
  return {'not_started'}
end
local joined = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not joined then
  if ARGV[6] == '1' then
    return {'not_joined'}
  end
  if ARGV[7] ~= '' and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[7]) then
    return {'full'}
  end
end
local existing = redis.call('HGET', KEYS[4], ARGV[11])
if existing then
  return {'existing', existing}
end
if (redis.call('HGET', KEYS[2], ARGV[8]) or '0') ~= ARGV[9] then
  return {'attempts'}
end
if not joined then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
end
redis.call('HINCRBY', KEYS[2], ARGV[8], 1)
local fields = {}
for i = 12, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[5], unpack(fields))
redis.call('ZADD', KEYS[6], ARGV[3], ARGV[10])
redis.call('HSET', KEYS[4], ARGV[11], ARGV[10])
redis.call('SADD', KEYS[7], ARGV[10])
redis.call('HINCRBY', KEYS[8], 'games:started', 1)
return {'new'}
