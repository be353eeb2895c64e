-- KEYS: the holder (player or moderator), its name's lower-case spelling,
-- and for a moderator the set of every moderator: all in the holder's shard.
-- ARGV: name, token hash, creation time (ms).
-- Claims the name in every case with its token hash in one step: 0 if the
-- name is taken in any case. The token's own key is written before, in the
-- token's shard (store.tokens).
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'token_hash', ARGV[2], 'created_ms', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
if KEYS[3] then
  redis.call('SADD', KEYS[3], ARGV[1])
end
return 1
