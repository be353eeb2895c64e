--#include _streak
--#include _new_run
-- KEYS: game, games-playing, the player's games in play, the closed sealed
-- days (a tournament game: the closed tournaments), the day's sealed games
-- in play (the tournament's games in play; the game's own key for a free
-- game), metrics, move latency, the player's streak (the game's own key
-- for a free game), then the keys of the game's run: run,
-- player runs, pending runs, metrics, intake (``_new_run``).
-- ARGV: game id, the number of moves the caller judged the game at, the new
-- moves (one character each), the time (ms), the status after them, the
-- lifetime (s) of an ended game, the game's slot, the sealed daily's date
-- (a tournament game: its tournament) and the time (ms) it closes ("" for a
-- free game), then the
-- request's latency bucket and latency (seconds), or "" and "" for a
-- change no move request made, then the metric an ending counts under
-- besides its status ("forfeited_idle" for the sweeper's forfeit, or ""),
-- then the day before the sealed daily's date ("" for any other game), the
-- run's id, its entry in the intake (``store.queue.intake.intake_entry``),
-- how many ARGV items the run's fields as the game
-- ends by these moves take (0 when they do not end it), those fields, then
-- the run's fields as the game ends forfeited by its day's close (a sealed
-- daily game; none for a free one).
-- The compare-and-set of a move: the moves are appended only if the game is
-- still played with exactly that many moves (so of two racing requests one
-- applies, the other gets {'moved', count}); {'over', status} once it has
-- ended, {'missing'} without a game.
-- A sealed daily game whose day is closed, or a tournament's game whose
-- tournament is (marked so, or the time is past its close), takes no move:
-- it is forfeited with the moves it has (R18, R19),
-- and a request that brought moves gets {'closed'} (the same compare-and-set
-- holds: the caller's run fields are those of the game it judged).
-- The game's log has one entry per move: its character, then the
-- milliseconds since the move before (or since the deal), then a comma. It
-- is kept in fields log0, log1, … of at most 64 bytes each: a longer value
-- would turn the whole hash from Redis's compact encoding into a hashtable,
-- about twice the memory (``hash-max-listpack-value``).
-- A game that ends leaves games-playing (and its slot in the player's games
-- in play), its run is stored (``_new_run``, on the intake) and it expires
-- later; it is counted by its status (games:ended:<status>), and a move
-- request by its latency. A sealed daily game that ends in its day, not by
-- its close, counts its day in the player's streak.
local CHUNK = 64
local game = redis.call('HMGET', KEYS[1], 'status', 'count', 'last_ms', 'chunks')
if not game[1] then
  return {'missing'}
end
if game[1] ~= 'playing' then
  return {'over', game[1]}
end
local closed = ARGV[8] ~= '' and (redis.call('SISMEMBER', KEYS[4], ARGV[8]) == 1
  or tonumber(ARGV[4]) >= tonumber(ARGV[9]))
local refused = closed and #ARGV[3] > 0
if game[2] ~= ARGV[2] then
  return {'moved', game[2]}
end
local ended_count = tonumber(ARGV[16])
local run_fields = {unpack(ARGV, 17, 16 + ended_count)}
if closed then
  ARGV[3] = ''
  ARGV[5] = 'forfeit'
  run_fields = {unpack(ARGV, 17 + ended_count)}
end
local chunk = tonumber(game[4])
local log = redis.call('HGET', KEYS[1], 'log' .. chunk) or ''
local gap = tonumber(ARGV[4]) - tonumber(game[3])
for i = 1, #ARGV[3] do
  local entry = string.sub(ARGV[3], i, i) .. string.format('%d', gap) .. ','
  if #log + #entry > CHUNK then
    redis.call('HSET', KEYS[1], 'log' .. chunk, log)
    chunk = chunk + 1
    log = ''
  end
  log = log .. entry
  gap = 0
end
redis.call('HSET', KEYS[1], 'log' .. chunk, log, 'chunks', chunk, 'count', tonumber(game[2]) + #ARGV[3],
  'last_ms', ARGV[4], 'status', ARGV[5])
if ARGV[5] == 'playing' then
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  if redis.call('HGET', KEYS[3], ARGV[7]) == ARGV[1] then
    redis.call('HDEL', KEYS[3], ARGV[7])
  end
  if ARGV[8] ~= '' then
    redis.call('SREM', KEYS[5], ARGV[1])
    if not closed and ARGV[13] ~= '' then
      count_streak_day(KEYS[8], ARGV[8], ARGV[13])
    end
  end
  redis.call('HSET', KEYS[1], 'ended_ms', ARGV[4])
  redis.call('EXPIRE', KEYS[1], ARGV[6])
  redis.call('HINCRBY', KEYS[6], 'games:ended:' .. ARGV[5], 1)
  if ARGV[12] ~= '' then
    redis.call('HINCRBY', KEYS[6], 'games:' .. ARGV[12], 1)
  end
  listed_anew(KEYS[10], ARGV[4], ARGV[14])
  store_new_run({KEYS[9], KEYS[11], KEYS[12], KEYS[13]}, ARGV[14], ARGV[4], ARGV[15], run_fields)
end
if ARGV[10] ~= '' then
  redis.call('HINCRBY', KEYS[7], ARGV[10], 1)
  redis.call('HINCRBY', KEYS[7], 'count', 1)
  redis.call('HINCRBYFLOAT', KEYS[7], 'sum', ARGV[11])
end
if refused then
  return {'closed'}
end
return {'ok'}
