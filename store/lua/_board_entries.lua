--#include _rank
--#include _around
-- Shared by the board reads: appends (player, score, submission time in ms,
-- run id) per place to ``reply``. The run ids come from the board's hash,
-- one HMGET. A board that keeps no such hash (a seed board) gives instead
-- the ids of the player's runs submitted at the place's time, from their
-- run list (``player_runs`` is its key's prefix), space-separated: a
-- batch's runs share their submission time, so there may be several, and
-- the caller knows which of them is on the board (``store.boards``).
local function submitted_at(player, ms, player_runs)
  return table.concat(redis.call('ZRANGEBYSCORE', player_runs .. player, ms, ms), ' ')
end

local function with_runs(reply, places, runs_key, player_runs)
  if #places == 0 then
    return reply
  end
  local players = players_of(places)
  local runs = {}
  if runs_key then runs = redis.call('HMGET', runs_key, unpack(players)) end
  for i = 1, #players do
    local packed = tonumber(places[2 * i])
    local score, ms = rank_score(packed), string.format('%.0f', rank_submitted_ms(packed))
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = score
    reply[#reply + 1] = ms
    if runs_key then
      reply[#reply + 1] = runs[i] or ''
    else
      reply[#reply + 1] = submitted_at(players[i], ms, player_runs)
    end
  end
  return reply
end
