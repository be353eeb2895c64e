-- KEYS: the week's members, open cohorts, cohort counter, cohorts' tiers; the player's league history.
-- ARGV: player, tier, a cohort's size, the week's cohort key prefix (the cohort's id completes it), the week,
-- seconds the week's keys are kept.
-- A player's first counted game of the week puts them in the open cohort of their tier, or in a new one
-- when it is full: O(1), whatever the number of players. Joining again changes nothing: the answer is the
-- cohort and tier held, "<cohort> <tier>".
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  return held
end
local tier, size = ARGV[2], tonumber(ARGV[3])
local cohort, members = nil, 0
local open = redis.call('HGET', KEYS[2], tier)
if open then
  cohort, members = string.match(open, '^(%d+) (%d+)$')
  members = tonumber(members)
end
if not open or members >= size then
  cohort, members = tostring(redis.call('INCR', KEYS[3])), 0
  redis.call('HSET', KEYS[4], cohort, tier)
end
held = cohort .. ' ' .. tier
redis.call('HSET', KEYS[2], tier, cohort .. ' ' .. (members + 1))
redis.call('HSET', KEYS[1], ARGV[1], held)
local cohort_key = ARGV[4] .. cohort
redis.call('RPUSH', cohort_key, ARGV[1])
redis.call('HSET', KEYS[5], ARGV[5], held)
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3], KEYS[4], cohort_key}) do
  redis.call('EXPIRE', key, ARGV[6])
end
return held
