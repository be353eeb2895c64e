--#include _board_entries
-- KEYS: as board_page. ARGV: player, places either side, the board's packing.
-- One round trip for a player's place: their 0-based index (or nothing when
-- unranked), the window's first index, ``board_head``'s two counts, then the
-- window around it as board_page lists places.
local index, first, places = around(KEYS[1], ARGV[1], ARGV[2])
if not index then
  return {}
end
return with_runs(board_head({index, first}, KEYS[1], places, packing_span(ARGV[3])), places, KEYS[2], ARGV[3])
