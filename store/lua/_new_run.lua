-- A new run stored with its way to a verdict, in the script that makes it: its hash (``fields``:
-- alternating names and values, its audit log's first entry among them), its place in its
-- player's runs and among the players with runs, the pending runs, and, ``to_intake``, the intake
-- (``store.queue.intake``: a dispatcher queues one job for many). Counted as accepted.
-- ``k``: the keys, {run, player runs, players with runs, pending runs, metrics, intake}.
local function store_new_run(k, run_id, player, submitted_ms, to_intake, fields)
  redis.call('HSET', k[1], unpack(fields))
  redis.call('ZADD', k[2], submitted_ms, run_id)
  redis.call('ZADD', k[3], 'LT', submitted_ms, player)
  redis.call('ZADD', k[4], submitted_ms, run_id)
  if to_intake then
    redis.call('RPUSH', k[6], run_id)
  end
  redis.call('HINCRBY', k[5], 'submissions:accepted', 1)
end
