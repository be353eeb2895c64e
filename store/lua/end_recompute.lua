-- KEYS: the runs of a shard whose places are to be recomputed (``store.placing``).
-- ARGV: the run's id, when it was noted (ms) as the recompute read it.
-- Takes the run off once its places are recomputed, unless a later change noted it again
-- meanwhile (its own recompute still to come): 1 if taken off, else 0.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
