-- An erased player's places: on each board, their place removed (the board closes the gap) or, on a board
-- whose standings are kept (a closed season's, a closed day's sealed board), passed to their pseudonym with
-- no run. A place is moved whole: a ladder's count of games too; the player's window of games goes.
-- KEYS: per board, its places, its run-id hash, its games hash and the player's window (a kind without
--   games or windows: keys that do not exist)
-- ARGV[1]: the player; ARGV[2]: the pseudonym; ARGV[3..]: per board, 'keep' or 'drop'
-- Returns the places the player held.
local player, pseudonym = ARGV[1], ARGV[2]
local held = 0
for board = 0, #KEYS / 4 - 1 do
  local places, runs, games, window = KEYS[4 * board + 1], KEYS[4 * board + 2], KEYS[4 * board + 3],
    KEYS[4 * board + 4]
  local keep = ARGV[3 + board] == 'keep'
  local rank_key = redis.call('ZSCORE', places, player)
  if rank_key then
    held = held + 1
    if keep then
      redis.call('ZADD', places, rank_key, pseudonym)
    end
    redis.call('ZREM', places, player)
  end
  local count = redis.call('HGET', games, player)
  if count and keep then
    redis.call('HSET', games, pseudonym, count)
  end
  redis.call('HDEL', games, player)
  redis.call('HDEL', runs, player)
  redis.call('DEL', window)
end
return held
