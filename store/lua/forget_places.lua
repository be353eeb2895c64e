-- KEYS: a board's places, its run-id hash.
-- ARGV: (player, packed rank key, run id) per place, as read: a slice of a large board.
-- Removes those places once the archive holds them (``store.boards.cooling``), each only if it is
-- unchanged since it was read (a place a verdict changed meanwhile stays, and the reads merge the
-- two copies). Returns how many places Redis still holds of the board.
for i = 1, #ARGV, 3 do
  local held = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if held and tonumber(held) == tonumber(ARGV[i + 1]) and redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[i + 2] then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
  end
end
return redis.call('ZCARD', KEYS[1])
