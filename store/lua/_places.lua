--#include _placement
-- Recomputing a player's places from all their runs, which the caller passes
-- as KEYS[first..] in submission order (``store.places``). ``complete``
-- checks the count against the player's run list first: a run submitted
-- since the caller read it makes the script answer 'stale' before changing
-- anything, and the caller retries. A void run is not verified, so it never
-- holds a place.
local function complete(player_runs, first)
  return redis.call('ZCARD', player_runs) == #KEYS - first + 1
end

local function place(player, variant, day, board, board_runs, daily_board, daily_runs, first)
  local best, best_id, early, early_id
  for i = first, #KEYS do
    local r = redis.call('HMGET', KEYS[i], 'id', 'status', 'variant', 'daily', 'score', 'submitted_ms')
    if r[2] == 'verified' then
      local packed = pack_rank(tonumber(r[5]), tonumber(r[6]))
      if r[3] == variant and outranks(packed, best) then
        best, best_id = packed, r[1]
      end
      if day ~= '' and r[4] == day and earlier(packed, early) then
        early, early_id = packed, r[1]
      end
    end
  end
  put(board, board_runs, player, best, best_id)
  if day ~= '' then put(daily_board, daily_runs, player, early, early_id) end
end
