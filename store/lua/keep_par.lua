-- KEYS: the deal's par hash, its search marker.
-- ARGV: the line's score, the proven upper bound, the line (moves, space-separated), positions searched,
-- 1 when this is a worker's whole search (its marker then goes), seconds the par is kept.
-- Keeps what is proven of a deal's par: two searches' intervals both hold the par, so the higher line
-- and the lower bound are kept, whichever order searches end in; running it twice changes nothing.
local old = redis.call('HMGET', KEYS[1], 'score', 'upper', 'line', 'positions', 'searched')
local score, upper, line = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
if old[1] and tonumber(old[1]) >= score then
  score, line = tonumber(old[1]), old[3]
end
if old[2] and tonumber(old[2]) < upper then
  upper = tonumber(old[2])
end
local searched = (old[5] == '1' or ARGV[5] == '1') and '1' or '0'
redis.call('HSET', KEYS[1], 'score', score, 'upper', upper, 'line', line,
           'positions', math.max(tonumber(old[4] or 0), tonumber(ARGV[4])), 'searched', searched)
redis.call('EXPIRE', KEYS[1], ARGV[6])
if ARGV[5] == '1' then
  redis.call('DEL', KEYS[2])
end
return 1
