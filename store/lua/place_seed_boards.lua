--#include _placement
-- KEYS: player-runs, then those of the player's runs that count on a seed
-- board, then each one's seed board key in the same order, then each one's
-- seed board run-id hash in the same order (``scripts.place_seed_boards``).
-- ARGV: the player, how many runs their run list held when read.
-- Offers the player's best verified run in Redis on each seed board to it
-- (``_placement``), and names the run of a place it holds: for runs verified
-- before seed boards existed, or before seed boards named their runs. It
-- never takes a place away: a place may be held by an archived run.
-- 'stale', changing nothing, if the player submitted a run since the caller
-- read their list; else the number of seed boards the player is on.
if redis.call('ZCARD', KEYS[1]) ~= tonumber(ARGV[2]) then
  return 'stale'
end
local runs = (#KEYS - 1) / 3
local best, best_id, boards = {}, {}, {}
for i = 2, runs + 1 do
  local r = run_fields(KEYS[i])
  local board = KEYS[i + runs]
  boards[board] = KEYS[i + 2 * runs]
  if r.status == 'verified' then
    local packed = pack_rank(r.score, r.ms)
    if outranks(packed, best[board]) then best[board], best_id[board] = packed, r.id end
  end
end
local placed = 0
for board, board_runs in pairs(boards) do
  if best[board] then offer(board, board_runs, ARGV[1], best[board], best_id[board], outranks) end
  local held = redis.call('ZSCORE', board, ARGV[1])
  if held and best[board] and tonumber(held) == best[board] then
    redis.call('HSET', board_runs, ARGV[1], best_id[board])
  end
  if held then placed = placed + 1 end
end
return placed
