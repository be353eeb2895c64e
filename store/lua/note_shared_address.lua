--#include _flags
-- KEYS: the players of one address on one day (``keys.flag_address``), the
-- four indexes an open shared_address flag is listed in (the first: every
-- flag), then every flag index.
-- ARGV: the player, their run's id, when the address is forgotten (s since
-- 1970), the id a new flag gets, the time (ms), how many flags are kept, the
-- flag key prefix, the run-flags key prefix, then a new flag's fields as
-- name/value pairs (its players and runs are added here).
-- Notes that the player started the day's sealed daily from the address.
-- From the second player on, the address's one shared_address flag names
-- them all, in the order they started. Its id, or '' while the address has
-- one player. Noting the same start twice changes nothing.
local MARK = ':flag'  -- a field no player name can be (names are A-Z a-z 0-9 _ -)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
local players, runs = {}, {}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  if entries[i] ~= MARK then
    players[#players + 1] = entries[i]
    runs[#runs + 1] = entries[i + 1]
  end
end
if #players < 2 then
  return ''
end
local id = redis.call('HGET', KEYS[1], MARK)
if not id then
  id = ARGV[4]
  redis.call('HSET', KEYS[1], MARK, id)
end
local flag_key = ARGV[7] .. id
local named = {'players', table.concat(players, ' '), 'runs', table.concat(runs, ' ')}
if redis.call('EXISTS', flag_key) == 1 then
  redis.call('HSET', flag_key, unpack(named))
  for _, run in ipairs(runs) do redis.call('SADD', ARGV[8] .. run, id) end
  return id
end
local fields = named
for i = 9, #ARGV do fields[#fields + 1] = ARGV[i] end
local trimmed = {}
for i = 6, #KEYS do trimmed[#trimmed + 1] = KEYS[i] end
add_flag(flag_key, id, fields, ARGV[5], {KEYS[2], KEYS[3], KEYS[4], KEYS[5]}, runs, ARGV[8])
keep_newest(KEYS[2], ARGV[6], trimmed, ARGV[7], ARGV[8])
return id
