--#include _placement
-- Recomputing a player's places on the boards one run counts on from all
-- their runs, which the caller passes as KEYS[first..] in submission order
-- (``scripts._with_player_runs``). ``complete`` checks the count against
-- the player's run list first: a run submitted since the caller read it
-- makes the script answer 'stale' before changing anything, and the caller
-- retries. Each board gets what ``_placement``'s rules give for the
-- player's verified runs that count on it.
local function complete(player_runs, first)
  return redis.call('ZCARD', player_runs) == #KEYS - first + 1
end

-- ``run_key``: the run whose boards to recompute; KEYS[b]: the first board key.
local function place(run_key, b, first)
  local mine = run_fields(run_key)
  local boards = boards_of(mine)
  local best, best_id, early, early_id, top, top_id
  local played = {}
  for i = first, #KEYS do
    local r = run_fields(KEYS[i])
    if r.status == 'verified' then
      local theirs = boards_of(r)
      local packed = pack_rank(r.score, r.ms)
      if theirs.best == boards.best and outranks(packed, best) then best, best_id = packed, r.id end
      if boards.first and theirs.first == boards.first and earlier(packed, early) then
        early, early_id = packed, r.id
      end
      if boards.seed and theirs.seed == boards.seed and outranks(packed, top) then top, top_id = packed, r.id end
      if boards.ladder and theirs.ladder == boards.ladder then played[#played + 1] = {r.ms, r.id, r.score} end
    end
  end
  put(KEYS[b], KEYS[b + 1], mine.player, best, best_id)
  if boards.first then put(KEYS[b + 2], KEYS[b + 3], mine.player, early, early_id) end
  if boards.seed then put(KEYS[b + 4], nil, mine.player, top, top_id) end
  if boards.ladder then ladder_set(KEYS[b + 5], KEYS[b + 6], KEYS[b + 7], mine.player, played) end
end
