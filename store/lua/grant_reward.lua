-- Grant a player the reward a competition's final ranks earn them, once, and record its event of a grant
-- (``_events``) in the same step. A reward granted already with the same terms (rank and payload) is
-- left as it is; with other terms (a void re-ranked the competition), one not yet claimed takes the new
-- terms and is told again, and a claimed one is kept as claimed and flagged for moderators, once a terms.
-- KEYS: the source's granted players, the player's inbox, the flagged rewards, the webhook outbox, the
-- webhooks index.
-- ARGV: the player, the reward's id, the reward as shown (JSON), its terms, the time (ms), its
-- event of a grant (JSON, named as ``domain.events`` names it).
-- Returns 1 granted, 2 changed, 3 flagged, 0 nothing to do.
--#include _events
local player, id, shown, terms = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local held_terms = redis.call('HGET', KEYS[2], 'terms:' .. id)
local told = 1
if held_terms then
  if held_terms == terms then
    return 0
  end
  if redis.call('HEXISTS', KEYS[2], 'claimed:' .. id) == 1 then
    if redis.call('HGET', KEYS[2], 'flagged:' .. id) == terms then
      return 0
    end
    redis.call('HSET', KEYS[2], 'flagged:' .. id, terms)
    redis.call('LPUSH', KEYS[3], '{"player":' .. cjson.encode(player) .. ',"reward":' .. cjson.encode(id) ..
                                 ',"at_ms":' .. ARGV[5] .. ',"claimed":' .. redis.call('HGET', KEYS[2], id) ..
                                 ',"now_earned":' .. shown .. '}')
    return 3
  end
  told = 2
end
redis.call('HSET', KEYS[2], id, shown, 'terms:' .. id, terms)
redis.call('HSET', KEYS[1], player, id)
if events_wanted(KEYS[5]) then
  record_encoded(KEYS[4], ARGV[6])
end
return told
