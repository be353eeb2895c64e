--#include _places
-- KEYS: the older layout's runs being placed and runs to recompute
-- (``store.operations.old_layouts``: ``placing``, ``replacing``), the keys of
-- the boards the run counts on (``_placement``), player-runs, then every run
-- of the player. ARGV: the run's id, its player, then the boards and the
-- runs on each (``_places``).
-- Finishes what the older layout's steps owed a run: the player's places on
-- the run's boards recomputed from all their runs, as a restore does (the
-- run may be archived: its player comes in ARGV), and the run taken off
-- both lists. 'stale', changing nothing, if the player's run list changed
-- since it was read; else 'ok'.
local boards, player_runs = recomputed_boards(3, 3)
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
for _, board in ipairs(boards) do
  if not board.frozen then place_on(board, ARGV[2], player_runs + 1) end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 'ok'
