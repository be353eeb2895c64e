-- KEYS: run.
-- ARGV: the run's fields as read (name/value pairs).
-- Step 1 of removing a run from Redis once the archive holds it (``store.runs.remove_runs``):
-- deletes its hash unless it changed since it was read: 'ok', 'gone' (removed before) or
-- 'changed' (changing nothing). Its player's run list is step 2 (``unlist_run.lua``), in
-- the player's shard. Its board places stay: each names the run by id, wherever it lives.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
if redis.call('HLEN', KEYS[1]) * 2 ~= #ARGV then
  return 'changed'
end
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1])
return 'ok'
