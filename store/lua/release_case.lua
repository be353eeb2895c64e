-- KEYS: a run's case at the desk. ARGV: a moderator.
-- Releases the case if that moderator holds it (another's claim stays). 1 if released.
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, string.find(held, ' ', 1, true) + 1) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
