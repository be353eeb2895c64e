-- Claim a reward of the player's inbox, once, and record ``reward.claimed`` (``_events``) in the same step.
-- KEYS: the player's inbox, the webhook outbox, the webhooks index.
-- ARGV: the player, the reward's id, the time (ms), the time (ISO 8601).
-- Returns {'claimed', reward JSON} now, {'already'} claimed before, {'none'} no such reward.
--#include _events
--#include _reward
local id, at = ARGV[2], ARGV[3]
local held = redis.call('HGET', KEYS[1], id)
if not held then
  return {'none'}
end
if redis.call('HSETNX', KEYS[1], 'claimed:' .. id, at) == 0 then
  return {'already'}
end
if events_wanted(KEYS[3]) then
  local reward = shown(held)
  reward.claimed_at = ARGV[4]
  record_event(KEYS[2], {event = 'reward.claimed', at_ms = at, fields = {player = ARGV[1], reward = reward}})
end
return {'claimed', held}
