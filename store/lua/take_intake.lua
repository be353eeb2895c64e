-- KEYS: a shard's intake, then the key of each run the dispatcher read at
-- its head. ARGV: the job id, the ``job`` a run waiting in the intake has,
-- then those run ids.
-- Takes those runs from the intake for the job the dispatcher queues next,
-- if they are still its head: each run still waiting names this job then.
-- Returns how many it took (0 when another dispatcher took them first),
-- then the ids of the runs that now name the job: the job's runs.
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
local claimed = {count}
for i = 1, count do
  local run = KEYS[i + 1]
  if redis.call('HGET', run, 'job') == ARGV[2] then
    redis.call('HSET', run, 'job', ARGV[1])
    claimed[#claimed + 1] = ARGV[i + 2]
  end
end
return claimed
