--#include _sole
-- KEYS: a board's places, its run-id hash (then, a kind kept as its sole place, the hash of sole places:
-- ``_sole``).
-- ARGV: the board's name, then (player, packed rank key, run id) per place, as read: a slice of a large board.
-- Removes those places once the archive holds them (``store.boards.cooling``), each only if it is
-- unchanged since it was read (a place a verdict changed meanwhile stays, and the reads merge the
-- two copies; one place left goes into its field, ``gather``, where the next slice finds it). Returns how
-- many places Redis still holds of the board.
local name = ARGV[1]
-- the board's form, read once: the removals below leave it as it is until ``gather``
local sole = sole_of(KEYS, name)
for i = 2, #ARGV, 3 do
  local player, packed, run_id = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  if sole then
    if sole.player == player and sole.rank == packed and sole.run_id == run_id then
      redis.call('HDEL', KEYS[3], name)
      sole = false
    end
  elseif sole == nil then
    local held = redis.call('ZSCORE', KEYS[1], player)
    if held and tonumber(held) == packed and redis.call('HGET', KEYS[2], player) == run_id then
      redis.call('ZREM', KEYS[1], player)
      redis.call('HDEL', KEYS[2], player)
    end
  end
end
gather(KEYS, name)
if sole_of(KEYS, name) then
  return 1
end
return redis.call('ZCARD', KEYS[1])
