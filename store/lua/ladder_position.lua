--#include _ladder_entries
-- KEYS: as ladder_page. ARGV: player, places either side, the window key's prefix.
-- One round trip for a player's ladder place: their 0-based index (or
-- nothing when not on the ladder), then the window around it as ladder_page lists places.
local index, first, places = around(KEYS[1], ARGV[1], ARGV[2])
if not index then
  return {}
end
return with_games({index, first}, places, KEYS[2], ARGV[3])
