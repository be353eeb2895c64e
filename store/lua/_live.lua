-- Live events (``store.live``): a script keeps each in its player's stream in the step that makes it
-- true, and publishes them all at its end in one message on the live channel, where each API process
-- hears them once for every stream it has open (``live_publish``). A player's stream is named by the
-- streams' prefix (one of the script's KEYS) followed by the player's name; it keeps about LIVE_KEPT
-- events and goes LIVE_KEPT_MS after its latest (``store.live.events`` reads no older ones).
local LIVE_KEPT, LIVE_KEPT_MS = 100, 86400000
local live_written = {}  -- {player, stream id, data} of each event this script kept
local live_streams, live_added = {}, {}  -- the streams this script added to, in order and by name

-- Keep ``data`` (an event's JSON, with its ``type``) in ``player``'s stream: its id there.
local function live_event(prefix, player, data)
  local stream = prefix .. player
  local id = redis.call('XADD', stream, 'MAXLEN', '~', LIVE_KEPT, '*', 'data', data)
  if not live_added[stream] then
    live_added[stream] = true
    live_streams[#live_streams + 1] = stream
  end
  live_written[#live_written + 1] = {player, id, data}
  return id
end

-- Each stream this script added to lives LIVE_KEPT_MS from now (one PEXPIRE a stream, however many events
-- it took), and the events it kept are published, once, on ``channel``: a JSON list of ``[player, id, data]``.
local function live_publish(channel)
  for _, stream in ipairs(live_streams) do redis.call('PEXPIRE', stream, LIVE_KEPT_MS) end
  if #live_written > 0 then redis.call('PUBLISH', channel, cjson.encode(live_written)) end
end
