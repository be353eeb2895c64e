-- KEYS: a board's places, its run-id hash, its versions, its placed runs (``store.placing``).
-- ARGV: (player, packed rank key, run id) per place, as read.
-- Removes a board once the archive holds it (``store.board_cooling``), its versions and placed
-- runs with it, unless it changed since it was read (a verdict placed meanwhile): 'ok', or
-- 'changed' changing nothing. (A board that cools ranks the best: a run offered again after it
-- left keeps the better place, as the merged reads show it.)
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
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return 'ok'
