--#include _flags
-- KEYS: the flag, the four indexes an open flag of its reason is listed in
-- (the first: every flag), then every flag index.
-- ARGV: flag id, time raised (ms), how many flags are kept, the flag key
-- prefix, the run-flags key prefix, the runs it names (space-separated),
-- then the flag's fields as name/value pairs.
-- Raises a flag once: 1, or 0 (nothing changed) if it was raised before.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local fields = {}
for i = 7, #ARGV do fields[#fields + 1] = ARGV[i] end
local trimmed = {}
for i = 6, #KEYS do trimmed[#trimmed + 1] = KEYS[i] end
add_flag(KEYS[1], ARGV[1], fields, ARGV[2], {KEYS[2], KEYS[3], KEYS[4], KEYS[5]}, words(ARGV[6]), ARGV[5])
keep_newest(KEYS[2], ARGV[3], trimmed, ARGV[4], ARGV[5])
return 1
