--#include _board_entries
--#include _among
-- KEYS: board places, then its run-id hash.
-- ARGV: first index, last index (0-based, among the players, best first), the board's packing, then the players.
-- One round trip for chosen players' places ranked among themselves: the
-- head ``among_head`` gives, then each listed place as ``with_runs`` lists it.
local count, indexes, places = among(KEYS[1], ARGV, 4, tonumber(ARGV[1]), tonumber(ARGV[2]))
return with_runs(among_head(KEYS[1], count, indexes, places, packing_span(ARGV[3])), places, KEYS[2], ARGV[3])
