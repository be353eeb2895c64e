--#include _rank
--#include _around
-- Shared by the board reads: appends (player, score, submission time in ms,
-- run id) per place to ``reply``, unpacked as ``packing`` says (``unpack_place``).
-- The run ids come from the board's hash, one HMGET: a board's entries say
-- all it shows, without the runs' hashes.
local function with_runs(reply, places, runs_key, packing)
  if #places == 0 then
    return reply
  end
  local players = players_of(places)
  local runs = redis.call('HMGET', runs_key, unpack(players))
  for i = 1, #players do
    local score, ms = unpack_place(tonumber(places[2 * i]), packing)
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = score
    reply[#reply + 1] = string.format('%.0f', ms)
    reply[#reply + 1] = runs[i] or ''
  end
  return reply
end
