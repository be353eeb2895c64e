--#include _placement
--#include _fence
-- KEYS: a seed board's places, its run-id hash, its versions (``store.placing``).
-- ARGV: the player, their version as read ('' for none), then their best verified run in Redis
-- that counts on the board, read after that version: its packed rank key and id ('' for none).
-- Offers that run its place (``_placement``), and names the run of the place the player holds
-- when it is that run: for runs verified before seed boards existed, or before seed boards named
-- their runs. It never takes a place away: a place may be held by an archived run. An offer
-- (``_fence``): 'moved', changing nothing, if the player's fence moved since the version was
-- read; else 1 if the player is on the board, 0 if not.
local version = version_of(KEYS[3], ARGV[1])
if fence_of(version) ~= fence_of(ARGV[2]) then
  return 'moved'
end
if ARGV[3] ~= '' then
  local best = tonumber(ARGV[3])
  offer(KEYS[1], KEYS[2], ARGV[1], best, ARGV[4], outranks)
  move_version(KEYS[3], ARGV[1], version, 0, 1)
  local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if held and tonumber(held) == best then
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
  end
end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
return 0
