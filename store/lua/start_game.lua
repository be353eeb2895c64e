-- KEYS: game, games-playing, the player's games in play (slot → id), the
-- player's sealed daily game of the day, the player's next deal, the closed
-- sealed days, the day's sealed games in play (the game's own key where a
-- free game has none of the sealed keys, and a sealed game no next deal),
-- metrics.
-- ARGV: game id, creation time (ms), the game's slot (its variant, or
-- "daily:<date>"), "1" for a sealed daily game, that key's lifetime (s),
-- the sealed daily's date, the server seed of the player's next deal the
-- game was dealt from (free games), then the game's fields as name/value
-- pairs.
-- Stores a new game and lists it as being played: {'new'}. A free game only
-- if the player has none of its variant in play ({'existing', id}) and the
-- next deal is still the one it was dealt from ({'redeal'}: another start
-- took it; it is taken here, so a new one is drawn). A sealed daily game
-- only if its day is not closed ({'closed'}) and the player has none that
-- day ({'existing', id}). A new game is counted (games:started).
if ARGV[4] == '1' then
  if redis.call('SISMEMBER', KEYS[6], ARGV[6]) == 1 then
    return {'closed'}
  end
  local existing = redis.call('GET', KEYS[4])
  if existing then
    return {'existing', existing}
  end
  redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[5])
  redis.call('SADD', KEYS[7], ARGV[1])
else
  local existing = redis.call('HGET', KEYS[3], ARGV[3])
  if existing then
    return {'existing', existing}
  end
  if redis.call('GET', KEYS[5]) ~= ARGV[7] then
    return {'redeal'}
  end
  redis.call('DEL', KEYS[5])
end
local fields = {}
for i = 8, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[8], 'games:started', 1)
return {'new'}
