-- The player's streak of sealed dailies (``domain.streak``), in the step that ends a game of one.
-- Counts ``day`` once: a day after the last one counted continues the run if it is the next day
-- (``previous`` is the day before it), else starts a new run of 1; a day counted already (or
-- older) changes nothing, so ending the day's one game twice counts it once.
local function count_streak_day(key, day, previous)
  local streak = redis.call('HMGET', key, 'last', 'run', 'best')
  if streak[1] and streak[1] >= day then
    return
  end
  local run = 1
  if streak[1] == previous then
    run = tonumber(streak[2]) + 1
  end
  redis.call('HSET', key, 'last', day, 'run', run, 'best', math.max(run, tonumber(streak[3] or '0')))
end
