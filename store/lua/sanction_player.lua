--#include _log
-- A ban or a hiding of a player noted, or lifted (``store.sanctions``), and, when that changes whether the
-- player's places are withheld (while either holds), the public log's leaf of it, in the same step.
-- KEYS: the player's ban (``keys.ban``), the banned players, the hidden players, the public log's two keys
-- (``_log``).
-- ARGV: the player, "ban" or "hide", the sanction as stored (empty: lift it), a ban's end (ms, or "+inf"),
-- then the leaf of the places withheld and the leaf of the places shown again, each around its index (two
-- items each, ``_log``).
-- 1, or 0 to lift a sanction the player does not have (nothing changed).
local player, kind, value = ARGV[1], ARGV[2], ARGV[3]
local function withheld()
  return redis.call('EXISTS', KEYS[1]) == 1 or redis.call('HEXISTS', KEYS[3], player) == 1
end
local before = withheld()
if kind == 'ban' and value ~= '' then
  redis.call('SET', KEYS[1], value)
  redis.call('ZADD', KEYS[2], ARGV[4], player)
elseif kind == 'ban' then
  if redis.call('DEL', KEYS[1]) == 0 then
    return 0
  end
  redis.call('ZREM', KEYS[2], player)
elseif value ~= '' then
  redis.call('HSET', KEYS[3], player, value)
elseif redis.call('HDEL', KEYS[3], player) == 0 then
  return 0
end
local after = withheld()
if after and not before then
  append_leaf(KEYS[4], KEYS[5], ARGV[5], ARGV[6])
elseif before and not after then
  append_leaf(KEYS[4], KEYS[5], ARGV[7], ARGV[8])
end
return 1
