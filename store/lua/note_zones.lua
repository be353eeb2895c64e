--#include _live
-- A cohort's league zones as they stand now (``store.leagues.zones``): each player whose zone differs from
-- the one noted for them has it noted and, if one was noted before, is told (``league.zone_changed``).
-- KEYS: the week's noted zones, the live streams' prefix, the live channel.
-- ARGV: how long the noted zones are kept (s), the event's other fields (JSON), then player/zone pairs.
-- Answers how many players were told.
local event = cjson.decode(ARGV[2])
event.type = 'league.zone_changed'
for i = 3, #ARGV, 2 do
  local player, zone = ARGV[i], ARGV[i + 1]
  local was = redis.call('HGET', KEYS[1], player)
  if was ~= zone then
    redis.call('HSET', KEYS[1], player, zone)
    if was then
      event.zone, event.was = zone, was
      live_event(KEYS[2], player, cjson.encode(event))
    end
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
live_publish(KEYS[3])
return #live_written
