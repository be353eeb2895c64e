--#include _board_entries
-- KEYS: board places, then its run-id hash (none for a seed board).
-- ARGV: first index, last index (0-based, best first), then for a board
-- without a run-id hash the player-runs key prefix.
-- One round trip for a board page: the total, then each place as ``with_runs`` lists it.
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_runs({redis.call('ZCARD', KEYS[1])}, places, KEYS[2], ARGV[3])
