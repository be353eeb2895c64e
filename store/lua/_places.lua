--#include _placement
-- Setting a player's place on one board from all their verified runs on it (``lua/place_player.lua``),
-- which the caller reads in Python, from Redis and the archive alike, and passes as values
-- (``store.placing``): ``<submission ms>:<run id>:<score>`` each, space-separated. The board gets
-- what ``_placement``'s rules give for them.

-- The runs a board's text lists.
local function verified_on(runs_text)
  local runs = {}
  for ms, id, score in string.gmatch(runs_text, '(%d+):([^: ]+):(-?%d+)') do
    runs[#runs + 1] = {id = id, status = 'verified', score = tonumber(score), ms = tonumber(ms)}
  end
  return runs
end

-- The player's place on ``board`` (``boards_from``) from their runs on it (``verified_on``'s text).
local function place_on(board, player, runs_text)
  local held, held_id, played = nil, nil, {}
  for _, r in ipairs(verified_on(runs_text)) do
    if board.order == 'latest' then
      played[#played + 1] = {r.ms, r.id, r.score}
    else
      local packed = pack_rank(r.score, r.ms)
      if WINS[board.order](packed, held) then held, held_id = packed, r.id end
    end
  end
  local k = board.keys
  if board.order == 'latest' then
    ladder_set(k[1], k[2], k[3], player, played)
  else
    put(k[1], k[2], player, held, held_id)
  end
end
