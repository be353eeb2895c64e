--#include _board_entries
-- KEYS: board places, board runs. ARGV: player, places either side.
-- One round trip for a player's place: their 0-based index (or nothing when
-- unranked), then the window around it as board_page lists places.
local index = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not index then
  return {}
end
local first = math.max(0, index - tonumber(ARGV[2]))
local places = redis.call('ZREVRANGE', KEYS[1], first, index + tonumber(ARGV[2]), 'WITHSCORES')
return with_runs({index, first}, places, KEYS[2])
