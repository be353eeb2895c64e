-- KEYS: intake, the jobs of runs taken from it (``keys.pending_jobs``), metrics.
-- ARGV: the job id, then the run ids the dispatcher read at the intake's head.
-- Takes those runs from the intake for the job, if they are still its head:
-- the job of each is noted in one HSET of the jobs of runs taken (their
-- hashes still say ``intake``), and they are counted as accepted
-- submissions, one HINCRBY for them all (``_new_run``). Every run in the intake exists and waits for
-- a job (a run leaves the intake only here, or with its player's erasure,
-- which takes it out in the step that deletes it), so none is read.
-- Returns how many it took (0 when another dispatcher took them first, or
-- the head changed), then their ids, which the caller queues the job for.
local count = #ARGV - 1
local head = redis.call('LRANGE', KEYS[1], 0, count - 1)
if #head ~= count then
  return {0}
end
for i = 1, count do
  if head[i] ~= ARGV[i + 1] then
    return {0}
  end
end
redis.call('LTRIM', KEYS[1], count, -1)
local taken, jobs = {count}, {}
for i = 1, count do
  jobs[#jobs + 1] = ARGV[i + 1]
  jobs[#jobs + 1] = ARGV[1]
  taken[#taken + 1] = ARGV[i + 1]
end
redis.call('HSET', KEYS[2], unpack(jobs))
redis.call('HINCRBY', KEYS[3], 'submissions:accepted', count)
return taken
