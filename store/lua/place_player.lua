--#include _places
-- A player's places on the boards their runs count on, recomputed from all their runs as a void recomputes
-- them (``_places``), or withheld: no place on any of them (a banned or hidden player's,
-- ``store.sanctions``). A frozen board (a closed season's) keeps the places it had at its close.
-- KEYS: the keys of the boards (``_placement``), player-runs, then every run of the player.
-- ARGV: the player, '1' to withhold the places ('' to recompute them), then the boards and the runs on
-- each (``_places``).
local boards, player_runs = recomputed_boards(1, 3)
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
for _, board in ipairs(boards) do
  if ARGV[2] == '1' then board.runs, board.archived = '', '' end
  if not board.frozen then place_on(board, ARGV[1], player_runs + 1) end
end
return 'ok'
