--#include _ladder_entries
-- KEYS: ladder, ladder games. ARGV: first index, last index (0-based, best
-- first), the ladder window key's prefix (the player's name completes it).
-- One round trip for a ladder page: ``board_head``'s total and places above
-- the first listed, then each place as ``with_games`` lists it.
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_games(board_head({}, KEYS[1], places, LADDER_SPAN), places, KEYS[2], ARGV[3])
