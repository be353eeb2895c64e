--#include _board_entries
-- KEYS: board places, then its run-id hash.
-- ARGV: first index, last index (0-based, best first), the board's packing ('rank' or 'total').
-- One round trip for a board page: ``board_head``'s total and places above
-- the first listed, then each place as ``with_runs`` lists it.
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_runs(board_head({}, KEYS[1], places, packing_span(ARGV[3])), places, KEYS[2], ARGV[3])
