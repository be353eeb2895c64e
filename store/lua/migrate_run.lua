-- KEYS: run, its audit stream of the older layout, the key naming it under its
-- game (``keys.submission``; else the run key again).
-- ARGV: run id, how many entries the stream had when read, the number n of
-- fields read, those fields (n name/value pairs), the number d of fields to
-- delete, their names, then the fields to write (name/value pairs).
-- Rewrites one run of an older layout into today's (``store.operations.migration``)
-- if the run and its stream are as they were read: 'ok', 'gone' (no such run),
-- or 'changed' (nothing written: read it again).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
local read = tonumber(ARGV[3])
if redis.call('XLEN', KEYS[2]) ~= tonumber(ARGV[2]) or redis.call('HLEN', KEYS[1]) ~= read then
  return 'changed'
end
for i = 4, 3 + 2 * read, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    return 'changed'
  end
end
local dropped = 4 + 2 * read
local first = dropped + 1 + tonumber(ARGV[dropped])
if first > dropped + 1 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, dropped + 1, first - 1))
end
if first <= #ARGV then
  redis.call('HSET', KEYS[1], unpack(ARGV, first))
end
redis.call('DEL', KEYS[2])
if KEYS[3] ~= KEYS[1] then
  redis.call('SET', KEYS[3], ARGV[1], 'NX')
end
return 'ok'
