-- KEYS: a board's places, its run-id hash.
-- ARGV: (player, packed rank key, run id) per place, as read.
-- Removes a board once the archive holds it (``store.boards.cooling``), unless it
-- changed since it was read (a verdict placed meanwhile): 'ok', or 'changed'
-- changing nothing.
local count = #ARGV / 3
if redis.call('ZCARD', KEYS[1]) ~= count or redis.call('HLEN', KEYS[2]) ~= count then
  return 'changed'
end
for i = 1, #ARGV, 3 do
  local held = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not held or tonumber(held) ~= tonumber(ARGV[i + 1]) or redis.call('HGET', KEYS[2], ARGV[i]) ~= ARGV[i + 2] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
return 'ok'
