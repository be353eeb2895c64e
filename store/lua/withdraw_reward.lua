-- Withdraw a reward a competition's ranks no longer earn (a void re-ranked it): gone from the inbox if
-- not claimed; a claimed one is never taken back, but flagged for moderators, once.
-- KEYS: the source's granted players, the player's inbox, the flagged rewards.
-- ARGV: the player, the reward's id, the time (ms).
-- Returns 1 withdrawn, 3 flagged, 0 nothing to do.
local player, id = ARGV[1], ARGV[2]
local held = redis.call('HGET', KEYS[2], id)
if not held then
  redis.call('HDEL', KEYS[1], player)
  return 0
end
if redis.call('HEXISTS', KEYS[2], 'claimed:' .. id) == 1 then
  if redis.call('HGET', KEYS[2], 'flagged:' .. id) == 'withdrawn' then
    return 0
  end
  redis.call('HSET', KEYS[2], 'flagged:' .. id, 'withdrawn')
  redis.call('LPUSH', KEYS[3], '{"player":' .. cjson.encode(player) .. ',"reward":' .. cjson.encode(id) ..
                               ',"at_ms":' .. ARGV[3] .. ',"claimed":' .. held .. ',"now_earned":null}')
  return 3
end
redis.call('HDEL', KEYS[2], id, 'terms:' .. id, 'flagged:' .. id)
redis.call('HDEL', KEYS[1], player)
return 1
