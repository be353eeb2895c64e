--#include _sole
-- KEYS: a board's places, its run-id hash, its hash of sole places (``_sole``).
-- ARGV: the board's name.
-- A board of a kind kept as its sole place, held in its two keys with no field saying so (as an older
-- release kept it): its field set to ``SPREAD``, where today's scripts read the board's form, unless the
-- board left its two keys or its field holds something since it was read: 1 if set, else 0.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[3], ARGV[1], SPREAD)
return 1
