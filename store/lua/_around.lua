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

-- How many places on ``board`` hold a strictly higher value than the rank
-- key ``packed`` (its part above ``span``: the score, or the ladder's sum):
-- the places a tie does not count (``domain.boards.percentile``). One
-- ZCOUNT, O(log N). The bound is formatted whole: a number handed to
-- redis.call is written with 14 digits, and rank keys have 16.
local function places_above(board, packed, span)
  return redis.call('ZCOUNT', board, string.format('%.0f', (math.floor(packed / span) + 1) * span), '+inf')
end

-- The head of a contiguous read of ``board`` (a page, or the window around
-- a player): its total, then ``places_above`` its first listed place (0 when
-- none is listed). Each later place's count follows from the window itself.
local function board_head(reply, board, places, span)
  reply[#reply + 1] = redis.call('ZCARD', board)
  reply[#reply + 1] = #places == 0 and 0 or places_above(board, tonumber(places[2]), span)
  return reply
end
