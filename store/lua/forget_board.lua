--#include _sole
-- KEYS: a board's places, its run-id hash (then, a kind kept as its sole place, the hash of sole places:
-- ``_sole``).
-- ARGV: the board's name, then (player, packed rank key, run id) per place, as read.
-- Removes a board once the archive holds it (``store.boards.cooling``), unless it
-- changed since it was read (a verdict placed meanwhile): 'ok', or 'changed'
-- changing nothing.
local name = ARGV[1]
local count = (#ARGV - 1) / 3
local sole = sole_of(KEYS, name)
if sole ~= nil then
  if count ~= 1 or not sole or sole.player ~= ARGV[2] or sole.rank ~= tonumber(ARGV[3]) or sole.run_id ~= ARGV[4] then
    return 'changed'
  end
  redis.call('HDEL', KEYS[3], name)
  return 'ok'
end
if redis.call('ZCARD', KEYS[1]) ~= count or redis.call('HLEN', KEYS[2]) ~= count then
  return 'changed'
end
for i = 2, #ARGV, 3 do
  local held = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not held or tonumber(held) ~= tonumber(ARGV[i + 1]) or redis.call('HGET', KEYS[2], ARGV[i]) ~= ARGV[i + 2] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
if KEYS[3] then
  redis.call('HDEL', KEYS[3], name)  -- its ``SPREAD``
end
return 'ok'
