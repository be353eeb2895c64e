-- KEYS: intake. ARGV: the job id, the key prefix of runs (``keys.run``),
-- the ``job`` a run waiting in the intake has, then the run ids the
-- dispatcher read at the intake's head.
-- Takes those runs from the intake for the job queued in the same MULTI
-- (drop_unclaimed_job follows it there), if they are still its head: each
-- waiting run's job becomes this one. Returns how many it took; 0 when
-- another dispatcher took them first (the job is then dropped: no run
-- names it).
local count = #ARGV - 3
local head = redis.call('LRANGE', KEYS[1], 0, count - 1)
if #head ~= count then
  return 0
end
for i = 1, count do
  if head[i] ~= ARGV[i + 3] then
    return 0
  end
end
redis.call('LTRIM', KEYS[1], count, -1)
for i = 1, count do
  local run = ARGV[2] .. ARGV[i + 3]
  if redis.call('HGET', run, 'job') == ARGV[3] then
    redis.call('HSET', run, 'job', ARGV[1])
  end
end
return count
