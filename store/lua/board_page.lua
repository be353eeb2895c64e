--#include _board_entries
-- KEYS: board places, then its run-id hash.
-- ARGV: first index, last index (0-based, best first).
-- One round trip for a board page: the total, then each place as ``with_runs`` lists it.
local places = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return with_runs({redis.call('ZCARD', KEYS[1])}, places, KEYS[2])
