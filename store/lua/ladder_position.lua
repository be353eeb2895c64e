--#include _ladder_entries
-- KEYS: as ladder_page. ARGV: player, places either side, the window key's prefix.
-- One round trip for a player's ladder place: their 0-based index (or
-- nothing when not on the ladder), the window's first index, ``board_head``'s
-- two counts, then the window around it as ladder_page lists places.
local index, first, places = around(KEYS[1], ARGV[1], ARGV[2])
if not index then
  return {}
end
return with_games(board_head({index, first}, KEYS[1], places, LADDER_SPAN), places, KEYS[2], ARGV[3])
