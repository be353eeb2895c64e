-- Shared by the reads of chosen players' places (a player and those they
-- follow): of ``players`` (ARGV from index ``from`` on), those with a place
-- on ``board``, best first. Returns how many have one, then for the page
-- from ``first`` to ``last`` (0-based, among them) each one's 0-based index
-- on the whole board and their places as a ZREVRANGE ... WITHSCORES reply.
-- One ZMSCORE for all F players (O(F)), ordered here as the sorted set
-- orders them (the higher rank key first; at equal keys the later name, as
-- ZREVRANGE has it), then a ZREVRANK (O(log N)) for each one listed only:
-- never a scan of the board.
local function among(board, players, from, first, last)
  local names = {}
  for i = from, #players do
    names[#names + 1] = players[i]
  end
  if #names == 0 then
    return 0, {}, {}
  end
  local keys = redis.call('ZMSCORE', board, unpack(names))
  local found = {}
  for i = 1, #names do
    if keys[i] then
      found[#found + 1] = {tonumber(keys[i]), names[i], keys[i]}
    end
  end
  table.sort(found, function(a, b)
    if a[1] ~= b[1] then
      return a[1] > b[1]
    end
    return a[2] > b[2]
  end)
  local indexes, places = {}, {}
  for i = first + 1, math.min(last + 1, #found) do
    indexes[#indexes + 1] = redis.call('ZREVRANK', board, found[i][2])
    places[#places + 1] = found[i][2]
    places[#places + 1] = found[i][3]
  end
  return #found, indexes, places
end

-- The head of an among reply: how many have a place, how many are listed,
-- the board's total, then each listed one's index, then ``places_above`` each
-- (the listed places are not contiguous: one ZCOUNT each).
local function among_head(board, count, indexes, places, span)
  local reply = {count, #indexes, redis.call('ZCARD', board)}
  for _, index in ipairs(indexes) do
    reply[#reply + 1] = index
  end
  for i = 2, #places, 2 do
    reply[#reply + 1] = places_above(board, tonumber(places[i]), span)
  end
  return reply
end
