--#include _placement
-- KEYS: player-runs, then those of the player's runs that count on a seed
-- board, then each one's seed board keys in the same order, three a run
-- (``_placement``: its places, run-id hash and hash of sole places)
-- (``scripts.place_seed_boards``).
-- ARGV: the player, how many runs their run list held when read, then each
-- run's seed board's name in the same order.
-- Offers the player's best verified run in Redis on each seed board to it
-- (``_placement``), and names the run of a place it holds: for runs verified
-- before seed boards existed, or before seed boards named their runs. It
-- never takes a place away: a place may be held by an archived run.
-- 'stale', changing nothing, if the player submitted a run since the caller
-- read their list; else the number of seed boards the player is on.
local player = ARGV[1]
if redis.call('ZCARD', KEYS[1]) ~= tonumber(ARGV[2]) then
  return 'stale'
end
local runs = (#KEYS - 1) / 4
local best, best_id, boards = {}, {}, {}
for i = 1, runs do
  local r = run_fields(KEYS[1 + i])
  local name, first = ARGV[2 + i], 1 + runs + 3 * (i - 1)
  boards[name] = {KEYS[first + 1], KEYS[first + 2], KEYS[first + 3]}
  if r.status == 'verified' then
    local packed = pack_rank(r.score, r.ms)
    if outranks(packed, best[name]) then best[name], best_id[name] = packed, r.id end
  end
end
local placed = 0
for name, k in pairs(boards) do
  if best[name] then offer(k, name, sole_of(k, name), player, best[name], best_id[name], outranks) end
  local sole = sole_of(k, name)
  if sole ~= nil then  -- its one place names its run
    if sole and sole.player == player then placed = placed + 1 end
  else
    local held = redis.call('ZSCORE', k[1], player)
    if held and best[name] and tonumber(held) == best[name] then
      redis.call('HSET', k[2], player, best_id[name])
    end
    if held then placed = placed + 1 end
  end
end
return placed
