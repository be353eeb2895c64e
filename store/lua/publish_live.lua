--#include _live
-- One live event for a player (``store.live.publish``), kept in their stream and published.
-- KEYS: the live streams' prefix, the live channel. ARGV: the player, the event's JSON.
-- Answers the event's id in the player's stream.
local id = live_event(KEYS[1], ARGV[1], ARGV[2])
live_publish(KEYS[2])
return id
