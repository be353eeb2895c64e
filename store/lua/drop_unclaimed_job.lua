-- KEYS: an RQ job's key, its queue's key (both as RQ names them), then the
-- runs the job was queued for. ARGV: the job id.
-- Removes a job queued in the same MULTI as accept_run when none of its runs
-- was created for it (every one was a duplicate): no job without a run.
for i = 3, #KEYS do
  if redis.call('HGET', KEYS[i], 'job') == ARGV[1] then
    return 0
  end
end
redis.call('DEL', KEYS[1])
redis.call('LREM', KEYS[2], 0, ARGV[1])
return 1
