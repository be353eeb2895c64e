--#include _rank
-- Board placement, the one Lua home of the ranking rules: a variant board
-- holds each player's best verified run (higher rank key: higher score, then
-- earlier submission); a daily board their earliest-submitted verified run
-- on that day's seed, whatever its score.
local function outranks(packed, held)
  return held == nil or packed > held
end

local function earlier(packed, held)
  return held == nil or rank_submitted_ms(packed) < rank_submitted_ms(held)
end

-- The player's place on a board: ``packed`` held by ``run_id``, or no place (nil).
local function put(board, board_runs, player, packed, run_id)
  if packed then
    redis.call('ZADD', board, string.format('%.0f', packed), player)
    redis.call('HSET', board_runs, player, run_id)
  else
    redis.call('ZREM', board, player)
    redis.call('HDEL', board_runs, player)
  end
end

-- A newly verified run takes the player's place if ``wins`` it against the one held.
local function offer(board, board_runs, player, packed, run_id, wins)
  local held = redis.call('ZSCORE', board, player)  -- false, not nil, when the player has no place
  if wins(packed, held and tonumber(held) or nil) then
    put(board, board_runs, player, packed, run_id)
  end
end
