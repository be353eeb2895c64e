-- List a member once in a sorted set (a season closed, a tournament started or ended) and, in the
-- same step, record its event (``_events``): so the mark is never written without its event, nor
-- its event twice.
-- KEYS: the sorted set, the webhook outbox, the webhooks index.
-- ARGV: the member, its score, the event (JSON: its name, time and fields).
-- Returns 1 if this call listed it, 0 if it was listed already.
--#include _events
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return 0
end
if events_wanted(KEYS[3]) then
  record_encoded(KEYS[2], ARGV[3])
end
return 1
