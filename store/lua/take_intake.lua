-- KEYS: intake. ARGV: the job id, the key prefix of runs (``keys.run``),
-- then the run ids the dispatcher read at the intake's head.
-- Takes those runs from the intake for the job, if they are still its head:
-- each run's job becomes this one. Every run in the intake exists and waits
-- for a job (a run leaves the intake only here, or with its player's
-- erasure, which takes it out in the step that deletes it), so each is
-- written without a read. Returns how many it took (0 when another
-- dispatcher took them first, or the head changed), then their ids, which
-- the caller queues the job for.
local count = #ARGV - 2
local head = redis.call('LRANGE', KEYS[1], 0, count - 1)
if #head ~= count then
  return {0}
end
for i = 1, count do
  if head[i] ~= ARGV[i + 2] then
    return {0}
  end
end
redis.call('LTRIM', KEYS[1], count, -1)
local taken = {count}
for i = 1, count do
  redis.call('HSET', ARGV[2] .. ARGV[i + 2], 'job', ARGV[1])
  taken[#taken + 1] = ARGV[i + 2]
end
return taken
