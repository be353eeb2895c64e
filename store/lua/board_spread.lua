-- KEYS: a board's places: a sorted set whose member scores are rank keys,
-- a value times ``span`` plus a tie-break below ``span`` (``_rank.lua``:
-- the score plus its offset; the ladder: the sum of the last games plus its offset).
-- ARGV: span; offset (the value that stands for 0: buckets start at
-- multiples of their width from it); unit (bucket widths are multiples of
-- it); the most buckets wanted; and optionally a value: count the places below it.
-- One round trip for how a board's values spread, read from the sorted
-- set's own order statistics (each ZCOUNT is O(log N)), never a scan:
-- {total, first bucket's low value, bucket width, the middle place's value,
--  places below the asked value (-1 if none asked), the buckets' counts...}.
local span, offset, unit, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local total = redis.call('ZCARD', KEYS[1])
if total == 0 then
  return {0}
end

local function value_at(index)
  return math.floor(tonumber(redis.call('ZRANGE', KEYS[1], index, index, 'WITHSCORES')[2]) / span)
end

local function key(value)
  return string.format('%.0f', value * span)
end

local lowest, highest = value_at(0), value_at(-1)
local width = unit
for _, step in ipairs({1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000}) do
  width = step * unit
  if math.ceil((highest - lowest + 1) / width) <= most then
    break
  end
end
local first = lowest - ((lowest - offset) % width)

-- the middle place in rank order (for an even total, the better of the two middle ones)
local reply = {total, first, width, value_at(total - 1 - math.floor((total - 1) / 2)), -1}
if ARGV[5] then
  reply[5] = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. key(tonumber(ARGV[5])))
end
for low = first, highest, width do
  reply[#reply + 1] = redis.call('ZCOUNT', KEYS[1], key(low), '(' .. key(low + width))
end
return reply
