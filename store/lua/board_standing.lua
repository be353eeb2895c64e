--#include _around
-- KEYS: a board's places (a best or first board's, or a ladder's).
-- ARGV: player, the span of the board's rank keys (``_rank.lua``).
-- A player's standing on one board, for a list of boards read in one
-- pipeline: their 0-based index, rank key, the board's total and
-- ``places_above`` them; nothing when they have no place.
local index = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not index then
  return {}
end
local packed = redis.call('ZSCORE', KEYS[1], ARGV[1])
return {index, packed, redis.call('ZCARD', KEYS[1]), places_above(KEYS[1], tonumber(packed), tonumber(ARGV[2]))}
