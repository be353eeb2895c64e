--#include _archived_filter
-- KEYS: the archived-runs filter. ARGV: run ids.
-- Notes runs as held by the archive (``store.runs.archived_filter``), before
-- they leave Redis: a note too many only costs an archive lookup.
for i = 1, #ARGV do
  for _, bit in ipairs(archived_filter_bits(ARGV[i])) do
    redis.call('SETBIT', KEYS[1], bit, 1)
  end
end
return #ARGV
