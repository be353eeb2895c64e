-- KEYS: intake, the jobs of runs taken from it (``keys.pending_jobs``), metrics, pending runs.
-- ARGV: the job id, the time (ms), then the entries the dispatcher read at the intake's head (each a run's
-- id, then a space and its request's id, then a newline and the run's fields: ``store.queue.intake.intake_entry``).
-- Takes those entries from the intake for the job, if they are still its head:
-- the job of each run is noted in one HSET of the jobs of runs taken (their
-- hashes name no job), with its request's id after a space as in its entry
-- (for the sweeper, should it queue the run again), they enter the pending runs, queued now, in
-- one ZADD, and they are counted as accepted submissions, one HINCRBY for
-- them all (``_new_run``). Every run in the intake exists and waits for
-- a job (a run leaves the intake only here, or with its player's erasure,
-- which takes it out in the step that deletes it), so none is read.
-- Returns how many it took (0 when another dispatcher took them first, or
-- the head changed); the caller queues the job for their runs.
local count = #ARGV - 2
local head = redis.call('LRANGE', KEYS[1], 0, count - 1)
if #head ~= count then
  return 0
end
for i = 1, count do
  if head[i] ~= ARGV[i + 2] then
    return 0
  end
end
redis.call('LTRIM', KEYS[1], count, -1)
local jobs, queued = {}, {}
for i = 1, count do
  local run_id, request = string.match(ARGV[i + 2], '^([^ \n]+)([^\n]*)')
  jobs[#jobs + 1], jobs[#jobs + 2] = run_id, ARGV[1] .. request
  queued[#queued + 1], queued[#queued + 2] = ARGV[2], run_id
end
redis.call('HSET', KEYS[2], unpack(jobs))
redis.call('ZADD', KEYS[4], unpack(queued))
redis.call('HINCRBY', KEYS[3], 'submissions:accepted', count)
return count
