-- Shared by the board reads: the players of a ZREVRANGE ... WITHSCORES
-- reply, and the places around a player on a board: their 0-based index,
-- the first index of the ``either_side`` places around them and those
-- places (nil when the player has no place).
local function players_of(places)
  local players = {}
  for i = 1, #places, 2 do players[#players + 1] = places[i] end
  return players
end

local function around(board, player, either_side)
  local index = redis.call('ZREVRANK', board, player)
  if not index then
    return nil
  end
  local first = math.max(0, index - tonumber(either_side))
  return index, first, redis.call('ZREVRANGE', board, first, index + tonumber(either_side), 'WITHSCORES')
end
