--#include _rank
-- Shared by the board reads: appends (player, score, submission time in ms,
-- run id) per place to ``reply``, fetching the run ids with one HMGET.
local function with_runs(reply, places, runs_key)
  if #places == 0 then
    return reply
  end
  local players = {}
  for i = 1, #places, 2 do players[#players + 1] = places[i] end
  local runs = redis.call('HMGET', runs_key, unpack(players))
  for i = 1, #players do
    local packed = tonumber(places[2 * i])
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = rank_score(packed)
    reply[#reply + 1] = rank_submitted_ms(packed)
    reply[#reply + 1] = runs[i] or ''
  end
  return reply
end
