--#include _sole
-- An erased player's places: on each board, their place removed (the board closes the gap) or, on a board
-- whose standings are kept (a closed season's, a closed day's sealed board), passed to their pseudonym with
-- no run. A place is moved whole: a ladder's count of games too; the player's window of games goes.
-- KEYS: per board, its places, its run-id hash, its games hash, the player's window and its hash of sole
--   places (``_sole``; a kind without games, windows or sole places: keys that hold nothing of it)
-- ARGV[1]: the player; ARGV[2]: the pseudonym; ARGV[3..]: per board, 'keep' or 'drop', then its name (empty
--   for a kind never kept as its sole place)
-- Returns the places the player held.
local player, pseudonym = ARGV[1], ARGV[2]
local held = 0
for board = 0, #KEYS / 5 - 1 do
  local places, runs, games, window, soles = KEYS[5 * board + 1], KEYS[5 * board + 2], KEYS[5 * board + 3],
    KEYS[5 * board + 4], KEYS[5 * board + 5]
  local keep, name = ARGV[3 + 2 * board] == 'keep', ARGV[4 + 2 * board]
  local k = {places, runs, name ~= '' and soles or nil}
  local sole = sole_of(k, name)
  if sole then
    if sole.player == player then
      held = held + 1
      if keep then
        keep_sole(k, name, pseudonym, sole.rank, '')
      else
        redis.call('HDEL', soles, name)
      end
    end
  else
    local rank_key = redis.call('ZSCORE', places, player)
    if rank_key then
      held = held + 1
      if keep then
        redis.call('ZADD', places, rank_key, pseudonym)
      end
      redis.call('ZREM', places, player)
    end
  end
  local count = redis.call('HGET', games, player)
  if count and keep then
    redis.call('HSET', games, pseudonym, count)
  end
  redis.call('HDEL', games, player)
  redis.call('HDEL', runs, player)
  redis.call('DEL', window)
  gather(k, name)
end
return held
