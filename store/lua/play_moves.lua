-- KEYS: game, games-playing, games-ending.
-- ARGV: game id, the number of moves the caller judged the game at, the new
-- moves (one character each), the time (ms), the status after them, the
-- lifetime (s) of an ended game.
-- The compare-and-set of a move: the moves are appended only if the game is
-- still played with exactly that many moves (so of two racing requests one
-- applies, the other gets {'moved', count}); {'over', status} once it has
-- ended, {'missing'} without a game. Each move's time is kept as the
-- milliseconds since the one before (or since the deal), space-separated.
-- A game that ends leaves games-playing for games-ending and expires later.
local game = redis.call('HMGET', KEYS[1], 'status', 'moves', 'times', 'last_ms')
if not game[1] then
  return {'missing'}
end
if game[1] ~= 'playing' then
  return {'over', game[1]}
end
if #game[2] ~= tonumber(ARGV[2]) then
  return {'moved', tostring(#game[2])}
end
local times = game[3]
local gap = tostring(tonumber(ARGV[4]) - tonumber(game[4]))
for _ = 1, #ARGV[3] do
  if times == '' then times = gap else times = times .. ' ' .. gap end
  gap = '0'
end
redis.call('HSET', KEYS[1], 'moves', game[2] .. ARGV[3], 'times', times, 'last_ms', ARGV[4], 'status', ARGV[5])
if ARGV[5] == 'playing' then
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
  redis.call('HSET', KEYS[1], 'ended_ms', ARGV[4])
  redis.call('EXPIRE', KEYS[1], ARGV[6])
end
return {'ok'}
