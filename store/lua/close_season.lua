-- Close a season: list it as past (its boards frozen from this instant, ``_placement.lua``) and,
-- in the same step, record its ``season.ended`` event (``_events``), so the close is never
-- written without its event, nor its event twice.
-- KEYS: the closed seasons, the webhook outbox, the webhooks index.
-- ARGV: the season's id, its end (ms), the event's time (ms), the event's fields (JSON).
-- Returns 1 if this call closed it, 0 if it was closed already.
--#include _events
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return 0
end
if events_wanted(KEYS[3]) then
  record_event(KEYS[2], {event = 'season.ended', at_ms = ARGV[3], fields = cjson.decode(ARGV[4])})
end
return 1
