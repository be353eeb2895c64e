--#include _board_entries
-- KEYS: as board_page. ARGV: player, places either side.
-- One round trip for a player's place: their 0-based index (or nothing when
-- unranked), then the window around it as board_page lists places.
local index, first, places = around(KEYS[1], ARGV[1], ARGV[2])
if not index then
  return {}
end
return with_runs({index, first}, places, KEYS[2])
