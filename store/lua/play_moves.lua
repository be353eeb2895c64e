-- KEYS: game, games-playing, games-ending, metrics, move latency.
-- ARGV: game id, the number of moves the caller judged the game at, the new
-- moves (one character each), the time (ms), the status after them, the
-- lifetime (s) of an ended game, then the request's latency bucket and
-- latency (seconds), or "" and "" for a change no move request made.
-- The compare-and-set of a move: the moves are appended only if the game is
-- still played with exactly that many moves (so of two racing requests one
-- applies, the other gets {'moved', count}); {'over', status} once it has
-- ended, {'missing'} without a game.
-- The game's log has one entry per move: its character, then the
-- milliseconds since the move before (or since the deal), then a comma. It
-- is kept in fields log0, log1, … of at most 64 bytes each: a longer value
-- would turn the whole hash from Redis's compact encoding into a hashtable,
-- about twice the memory (``hash-max-listpack-value``).
-- A game that ends leaves games-playing for games-ending and expires later;
-- it is counted by its status (games:ended:<status>), and a move request by
-- its latency.
local CHUNK = 64
local game = redis.call('HMGET', KEYS[1], 'status', 'count', 'last_ms', 'chunks')
if not game[1] then
  return {'missing'}
end
if game[1] ~= 'playing' then
  return {'over', game[1]}
end
if game[2] ~= ARGV[2] then
  return {'moved', game[2]}
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
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
  redis.call('HSET', KEYS[1], 'ended_ms', ARGV[4])
  redis.call('EXPIRE', KEYS[1], ARGV[6])
  redis.call('HINCRBY', KEYS[4], 'games:ended:' .. ARGV[5], 1)
end
if ARGV[7] ~= '' then
  redis.call('HINCRBY', KEYS[5], ARGV[7], 1)
  redis.call('HINCRBY', KEYS[5], 'count', 1)
  redis.call('HINCRBYFLOAT', KEYS[5], 'sum', ARGV[8])
end
return {'ok'}
