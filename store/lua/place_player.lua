--#include _places
--#include _fence
-- One board step of a recompute (``store.placing``): a player's place on one board set from all
-- their verified runs on it, read by the caller after the player's version.
-- KEYS: the board's keys (``_placement``, one board), its versions and its placed runs.
-- ARGV: '1', the board's spec, the player, their version as read ('' for none), the runs as
-- ``<submission ms>:<run id>:<score>``, space-separated, then the ids of those still being
-- placed (``placing``), space-separated.
-- 'moved', changing nothing, if the version (fence or offers, ``_fence``) is no longer the one read
-- (the caller reads again); else 'ok': the place set (a frozen board keeps its places), the runs
-- being placed noted as held (their own board step then changes nothing), the fence moved.
local boards, k, a = boards_from(1, 1)
local versions, placed = KEYS[k], KEYS[k + 1]
local player, read = ARGV[a], ARGV[a + 1]
local version = version_of(versions, player)
if version ~= read then
  return 'moved'
end
local board = boards[1]
if not board.frozen then
  place_on(board, player, ARGV[a + 2])
end
for run_id in string.gmatch(ARGV[a + 3], '%S+') do
  redis.call('SADD', placed, run_id)
end
move_version(versions, player, version, 1, 0)
return 'ok'
