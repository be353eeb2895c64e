--#include _fence
-- The last board step of a run being placed (``store.placing``): the board no longer notes it as
-- held, and the player's fence moves (``_fence``), so that a step that read the version before (a
-- late driver of the same run) refuses to write.
-- KEYS: the board's versions, its placed runs. ARGV: the player, the run's id.
redis.call('SREM', KEYS[2], ARGV[2])
move_version(KEYS[1], ARGV[1], version_of(KEYS[1], ARGV[1]), 1, 0)
return 1
