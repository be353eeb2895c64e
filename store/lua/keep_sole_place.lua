--#include _sole
-- KEYS: a board's places, its run-id hash, its hash of sole places (``_sole``).
-- ARGV: the board's name, then its one place as read: the player, the packed rank key, the run id ('' for
-- none).
-- A board of a kind kept as its sole place, held in its two keys with one place (as an older release kept
-- every board): that place moved into the hash of sole places and the two keys deleted, unless the board
-- changed since it was read: 'ok', or 'changed' changing nothing.
local name, player, packed, run_id = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('ZCARD', KEYS[1]) ~= 1 or redis.call('ZSCORE', KEYS[1], player) ~= packed
    or (redis.call('HGET', KEYS[2], player) or '') ~= run_id or redis.call('HLEN', KEYS[2]) > 1 then
  return 'changed'
end
gather(KEYS, name)
return 'ok'
