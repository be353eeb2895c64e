-- Claim a reward of the player's inbox, once, and record its event of a claim (``_events``) in the same
-- step: the reward as shown (kept as the grant encoded it) with its ``claimed_at``.
-- KEYS: the player's inbox, the webhook outbox, the webhooks index.
-- ARGV: the player, the reward's id, the time (ms), the time (ISO 8601), the event's name
-- (``domain.events``).
-- Returns {'claimed', the reward as shown} now, {'already'} claimed before, {'none'} no such reward.
--#include _events
local id, at = ARGV[2], ARGV[3]
local held = redis.call('HGET', KEYS[1], id)
if not held then
  return {'none'}
end
if redis.call('HSETNX', KEYS[1], 'claimed:' .. id, at) == 0 then
  return {'already'}
end
if events_wanted(KEYS[3]) then
  local claimed = string.sub(held, 1, -2) .. ',"claimed_at":' .. cjson.encode(ARGV[4]) .. '}'
  record_encoded(KEYS[2], '{"event":' .. cjson.encode(ARGV[5]) .. ',"at_ms":' .. at .. ',"fields":{"player":' ..
                          cjson.encode(ARGV[1]) .. ',"reward":' .. claimed .. '}}')
end
return {'claimed', held}
