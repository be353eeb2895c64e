--#include _log
-- An erased player's secret of the public log deleted, and the leaf saying their pseudonym's runs left the
-- boards appended (``store.log.forget_player``): after this nothing ties the pseudonym to a name.
-- KEYS: the players' secrets, the public log's two keys (``_log``).
-- ARGV: the player, the erasure's leaf around its index (two items, ``_log``).
-- 1 if the secret was there (the leaf appended), 0 if it was gone already (nothing appended).
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then
  return 0
end
append_leaf(KEYS[2], KEYS[3], ARGV[2], ARGV[3])
return 1
