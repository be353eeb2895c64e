--#include _sole
-- A player's forced rename (``store.privacy.renaming``): every key and member that names them moves to the new
-- name in this one step, each move a no-op where there is nothing to move, so the step is whole or not at all.
-- KEYS[1]: the player's hash, KEYS[2]: the new name's hash, KEYS[3]: the new name's lower-case spelling;
--   then each move's keys, as its ARGV names them.
-- ARGV[1]: the old name, ARGV[2]: the new name, ARGV[3]: how many moves; then each move: its kind, then its
--   values. Kinds (K: its next key, K2 the one after):
--   key            K renamed to K2 (its expiry kept), where K exists
--   member a b     on sorted set K, member a's score given to b, a removed
--   field a b      on hash K, field a's value given to b, a removed
--   set_field f v  on hash K, where K exists: field f set to v
--   put_field f v  on hash K: field f set to v
--   set v          string K set to v (its expiry kept), where K exists
--   set_new v      string K set to v, where K does not exist
--   rest s         string K set to "1" for s seconds
--   list a b       on list K, each element a replaced by b
--   words f a b    on hash K, field f's space-separated words: a replaced by b
--   sole f a b     on hash K of boards' sole places (``_sole``), board f's place, if a's, given to b
--   drop           K deleted
--   log v          v pushed at the head of list K
-- Answers 'renamed', 'gone' (no player's hash) or 'taken' (the new name is registered, in any case, by
-- someone else), changing nothing for the last two.
local old, new = ARGV[1], ARGV[2]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
local holder = redis.call('GET', KEYS[3])
if (holder and holder ~= old) or (KEYS[2] ~= KEYS[1] and redis.call('EXISTS', KEYS[2]) == 1) then
  return 'taken'
end
local k, a = 4, 4
for _ = 1, tonumber(ARGV[3]) do
  local kind, key = ARGV[a], KEYS[k]
  if kind == 'key' then
    if redis.call('EXISTS', key) == 1 then
      local ttl = redis.call('PTTL', key)
      redis.call('RENAME', key, KEYS[k + 1])
      if ttl > 0 then redis.call('PEXPIRE', KEYS[k + 1], ttl) end
    end
    k, a = k + 2, a + 1
  elseif kind == 'member' or kind == 'field' then
    local member = kind == 'member'
    local value = redis.call(member and 'ZSCORE' or 'HGET', key, ARGV[a + 1])
    if value then
      redis.call(member and 'ZREM' or 'HDEL', key, ARGV[a + 1])
      if member then
        redis.call('ZADD', key, value, ARGV[a + 2])
      else
        redis.call('HSET', key, ARGV[a + 2], value)
      end
    end
    k, a = k + 1, a + 3
  elseif kind == 'set_field' then
    if redis.call('EXISTS', key) == 1 then
      redis.call('HSET', key, ARGV[a + 1], ARGV[a + 2])
    end
    k, a = k + 1, a + 3
  elseif kind == 'put_field' then
    redis.call('HSET', key, ARGV[a + 1], ARGV[a + 2])
    k, a = k + 1, a + 3
  elseif kind == 'set' then
    if redis.call('EXISTS', key) == 1 then
      redis.call('SET', key, ARGV[a + 1], 'KEEPTTL')
    end
    k, a = k + 1, a + 2
  elseif kind == 'set_new' then
    redis.call('SET', key, ARGV[a + 1], 'NX')
    k, a = k + 1, a + 2
  elseif kind == 'rest' then
    redis.call('SET', key, '1', 'EX', ARGV[a + 1])
    k, a = k + 1, a + 2
  elseif kind == 'list' then
    local items = redis.call('LRANGE', key, 0, -1)
    for i, item in ipairs(items) do
      if item == ARGV[a + 1] then redis.call('LSET', key, i - 1, ARGV[a + 2]) end
    end
    k, a = k + 1, a + 3
  elseif kind == 'words' then
    local held = redis.call('HGET', key, ARGV[a + 1])
    if held then
      local words = {}
      for word in string.gmatch(held, '%S+') do
        words[#words + 1] = (word == ARGV[a + 2]) and ARGV[a + 3] or word
      end
      redis.call('HSET', key, ARGV[a + 1], table.concat(words, ' '))
    end
    k, a = k + 1, a + 4
  elseif kind == 'sole' then
    local held = redis.call('HGET', key, ARGV[a + 1])
    local place = held and held ~= SPREAD and sole_read(held)
    if place and place.player == ARGV[a + 2] then
      keep_sole({nil, nil, key}, ARGV[a + 1], ARGV[a + 3], place.rank, place.run_id)
    end
    k, a = k + 1, a + 4
  elseif kind == 'drop' then
    redis.call('DEL', key)
    k, a = k + 1, a + 1
  elseif kind == 'log' then
    redis.call('LPUSH', key, ARGV[a + 1])
    k, a = k + 1, a + 2
  else
    return redis.error_reply('rename_player: unknown move ' .. tostring(kind))
  end
end
return 'renamed'
