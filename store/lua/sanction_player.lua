--#include _log
-- A ban or a hiding of a player noted, or lifted (``store.sanctions``), and, when that changes whether the
-- player's places are withheld (while either holds), the public log's leaf of it, in the same step.
-- KEYS: the sanction's hash (bans, or hidden players), the other one's, the public log's two keys (``_log``).
-- ARGV: the player, the sanction as stored (empty: lift it), then the leaf of the places withheld and the
-- leaf of the places shown again, each around its index (two items each, ``_log``).
-- 1, or 0 to lift a sanction the player does not have (nothing changed).
local player = ARGV[1]
local function withheld()
  return redis.call('HEXISTS', KEYS[1], player) == 1 or redis.call('HEXISTS', KEYS[2], player) == 1
end
local before = withheld()
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], player, ARGV[2])
elseif redis.call('HDEL', KEYS[1], player) == 0 then
  return 0
end
local after = withheld()
if after and not before then
  append_leaf(KEYS[3], KEYS[4], ARGV[3], ARGV[4])
elseif before and not after then
  append_leaf(KEYS[3], KEYS[4], ARGV[5], ARGV[6])
end
return 1
