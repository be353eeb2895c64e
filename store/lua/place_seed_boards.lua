--#include _placement
-- KEYS: player-runs, then those of the player's runs that count on a seed
-- board, then each one's seed board key in the same order
-- (``scripts.place_seed_boards``).
-- ARGV: the player, how many runs their run list held when read.
-- Recomputes the player's place on the seed board of every run they have,
-- each the best of their verified runs on it (``_placement``): for runs
-- verified before seed boards existed. 'stale', changing nothing, if the
-- player submitted a run since the caller read their list; else the number
-- of seed boards the player is on.
if redis.call('ZCARD', KEYS[1]) ~= tonumber(ARGV[2]) then
  return 'stale'
end
local runs = (#KEYS - 1) / 2
local best, best_id, boards = {}, {}, {}
for i = 2, runs + 1 do
  local r = run_fields(KEYS[i])
  local board = KEYS[i + runs]
  boards[board] = true
  if r.status == 'verified' then
    local packed = pack_rank(r.score, r.ms)
    if outranks(packed, best[board]) then best[board], best_id[board] = packed, r.id end
  end
end
local placed = 0
for board in pairs(boards) do
  put(board, nil, ARGV[1], best[board], best_id[board])
  if best[board] then placed = placed + 1 end
end
return placed
