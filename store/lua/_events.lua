-- Events for the webhooks (``store.webhooks.hooks``): a script records each in
-- the outbox in the step that makes it true, so a verdict or a void is never
-- written without its event. A script is given the names of the events it
-- records by its Python wrapper (``domain.events`` names them all), and spells
-- none itself. Only while a webhook
-- is registered (the webhooks index exists): without one, nothing is kept.
local function events_wanted(hooks)
  return redis.call('EXISTS', hooks) == 1
end

local function record_event(outbox, event)
  redis.call('RPUSH', outbox, cjson.encode(event))
end

-- An event its caller encoded ({"event", "at_ms", "fields"}), kept as given: cjson would turn an empty list
-- of its fields into an object, and round a number.
local function record_encoded(outbox, encoded)
  redis.call('RPUSH', outbox, encoded)
end
