-- KEYS: the holder (player or moderator), its token's key, and for a
-- moderator the set of every moderator. ARGV: name, token hash, creation time (ms).
-- Claims the name and indexes the token in one step: 0 if the name is taken.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'token_hash', ARGV[2], 'created_ms', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
if KEYS[3] then
  redis.call('SADD', KEYS[3], ARGV[1])
end
return 1
