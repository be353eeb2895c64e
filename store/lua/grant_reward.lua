-- Grant a player the reward a competition's final ranks earn them, once, and record ``reward.granted``
-- (``_events``) in the same step. A reward granted already with the same terms (rank and payload) is
-- left as it is; with other terms (a void re-ranked the competition), one not yet claimed takes the new
-- terms and is told again, and a claimed one is kept as claimed and flagged for moderators, once a terms.
-- KEYS: the source's granted players, the player's inbox, the flagged rewards, the webhook outbox, the
-- webhooks index.
-- ARGV: the player, the reward's id, the reward as kept (JSON: ``store.rewards.inbox``), its terms, the
-- time (ms).
-- Returns 1 granted, 2 changed, 3 flagged, 0 nothing to do.
--#include _events
--#include _reward
local player, id, terms, at = ARGV[1], ARGV[2], ARGV[4], ARGV[5]
local held = redis.call('HGET', KEYS[2], id)
local told = 1
if held then
  local old = cjson.decode(held)
  if old.terms == terms then
    return 0
  end
  if redis.call('HEXISTS', KEYS[2], 'claimed:' .. id) == 1 then
    if redis.call('HGET', KEYS[2], 'flagged:' .. id) == terms then
      return 0
    end
    redis.call('HSET', KEYS[2], 'flagged:' .. id, terms)
    redis.call('LPUSH', KEYS[3], cjson.encode({player = player, reward = id, claimed = old,
                                                now_earned = cjson.decode(ARGV[3]), at_ms = tonumber(at)}))
    return 3
  end
  told = 2
end
redis.call('HSET', KEYS[2], id, ARGV[3])
redis.call('HSET', KEYS[1], player, id)
if events_wanted(KEYS[5]) then
  record_event(KEYS[4], {event = 'reward.granted', at_ms = at, fields = {player = player, reward = shown(ARGV[3])}})
end
return told
