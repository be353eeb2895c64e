-- KEYS: intake. ARGV: the job id, the key prefix of runs (``keys.run``),
-- the ``job`` a run waiting in the intake has, then the run ids the
-- dispatcher read at the intake's head.
-- Takes those runs from the intake for the job, if they are still its head:
-- each waiting run's job becomes this one. Returns how many it took (0 when
-- another dispatcher took them first), then the ids of the runs that name
-- the job, which the caller queues it for.
local count = #ARGV - 3
local head = redis.call('LRANGE', KEYS[1], 0, count - 1)
if #head ~= count then
  return {0}
end
for i = 1, count do
  if head[i] ~= ARGV[i + 3] then
    return {0}
  end
end
redis.call('LTRIM', KEYS[1], count, -1)
local taken = {count}
for i = 1, count do
  local run = ARGV[2] .. ARGV[i + 3]
  if redis.call('HGET', run, 'job') == ARGV[3] then
    redis.call('HSET', run, 'job', ARGV[1])
    taken[#taken + 1] = ARGV[i + 3]
  end
end
return taken
