-- KEYS: game, games-playing, the player's sealed daily game of the day (the
-- game's own key for a free game), metrics.
-- ARGV: game id, creation time (ms), "1" for a sealed daily game, that key's
-- lifetime (s), then the game's fields as name/value pairs.
-- Stores a new game and lists it as being played: {'new'}; for a sealed
-- daily game only if the player has none that day: else {'existing', id}.
-- A new game is counted (games:started).
if ARGV[3] == '1' then
  local existing = redis.call('GET', KEYS[3])
  if existing then
    return {'existing', existing}
  end
  redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[4])
end
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[4], 'games:started', 1)
return {'new'}
