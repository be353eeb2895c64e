-- KEYS: the holder (player or moderator), its token's key, its name's
-- lower-case spelling, and for a moderator the set of every moderator.
-- ARGV: name, token hash, creation time (ms).
-- Claims the name in every case and indexes the token in one step: 0 if the
-- name is taken in any case.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'token_hash', ARGV[2], 'created_ms', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
if KEYS[4] then
  redis.call('SADD', KEYS[4], ARGV[1])
end
return 1
