-- Shared by the reads of chosen players' places (a player and those they
-- follow): of ``players`` (ARGV from index ``from`` on), those with a place
-- on ``board``, best first. Returns how many have one, then for the page
-- from ``first`` to ``last`` (0-based, among them) each one's 0-based index
-- on the whole board and their places as a ZREVRANGE ... WITHSCORES reply.
-- A ZREVRANK a player, O(log N): never a scan of the board.
local function among(board, players, from, first, last)
  local found = {}
  for i = from, #players do
    local index = redis.call('ZREVRANK', board, players[i])
    if index then
      found[#found + 1] = {index, players[i]}
    end
  end
  table.sort(found, function(a, b) return a[1] < b[1] end)
  local indexes, places = {}, {}
  for i = first + 1, math.min(last + 1, #found) do
    indexes[#indexes + 1] = found[i][1]
    places[#places + 1] = found[i][2]
    places[#places + 1] = redis.call('ZSCORE', board, found[i][2])
  end
  return #found, indexes, places
end

-- The head of an among reply: how many have a place, how many are listed, their indexes.
local function among_head(count, indexes)
  local reply = {count, #indexes}
  for _, index in ipairs(indexes) do
    reply[#reply + 1] = index
  end
  return reply
end
