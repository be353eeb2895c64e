-- KEYS: a desk session. ARGV: its idle time (ms), the key prefix of moderators' hashes.
-- Answers the session's fields (a flat list), its expiry renewed, or nil: for no such session, and for a
-- session of a moderator token whose moderator no longer holds that token (revoked, or added again with
-- another), which is ended here. One round trip a desk request.
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
  return nil
end
local session = {}
for i = 1, #fields, 2 do
  session[fields[i]] = fields[i + 1]
end
if session.token_hash ~= '' then
  local held = redis.call('HGET', ARGV[2] .. session.moderator, 'token_hash')
  if held ~= session.token_hash then
    redis.call('DEL', KEYS[1])
    return nil
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return fields
