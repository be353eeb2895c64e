-- KEYS: run hashes. ARGV: the fields to read (``store.runs.records.BOARD_FIELDS``).
-- Each run's values of those fields, as HMGET gives them: one command for a player's runs, where a
-- pipeline of an HMGET each sends every field name again for each run.
local values = {}
for index, run in ipairs(KEYS) do
  values[index] = redis.call('HMGET', run, unpack(ARGV))
end
return values
