-- KEYS: run.
-- ARGV: the fields to store as name/value pairs (its audit log among them).
-- Step 2 of putting an archived run back into Redis (``store.runs.reinstate_run``), after its
-- player's shard lists it (``list_run.lua``): writes its hash as it was archived. 1, or 0
-- (changing nothing) if Redis holds the run already.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
