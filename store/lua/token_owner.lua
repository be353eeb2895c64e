-- KEYS: a token's key. ARGV: the key prefix of its holders (players' or
-- moderators'). Answers the holder it names and that holder's stored token
-- hash (for the constant-time comparison), or nil: authentication in one
-- round trip. The holder's key is only known here, from the token.
local name = redis.call('GET', KEYS[1])
if not name then
  return nil
end
return {name, redis.call('HGET', ARGV[1] .. name, 'token_hash') or ''}
