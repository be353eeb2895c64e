--#include _ladder_entries
--#include _among
-- KEYS: ladder, ladder games. ARGV: first index, last index (0-based, among
-- the players, best first), the ladder window key's prefix, then the players.
-- One round trip for chosen players' ladder places ranked among themselves:
-- the head ``among_head`` gives, then each listed place as ``with_games`` lists it.
local count, indexes, places = among(KEYS[1], ARGV, 4, tonumber(ARGV[1]), tonumber(ARGV[2]))
return with_games(among_head(KEYS[1], count, indexes, places, LADDER_SPAN), places, KEYS[2], ARGV[3])
