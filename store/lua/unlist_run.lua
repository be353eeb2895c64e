-- KEYS: player-runs, players with runs (the player's shard's), the key naming the run
-- under its game (``keys.submission``, for a run whose id is not derived from its player
-- and game; else the player-runs key again). All of the player's shard.
-- ARGV: run id, player.
-- Step 2 of removing a run (``store.runs.remove_runs``), once its hash is gone: takes it out
-- of its player's run list, rescores the player among the players with runs by their oldest
-- run left (or drops them), and deletes the key naming it under its game if it names it.
-- Idempotent: 1 if the run was in the list, else 0.
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #oldest == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
else
  redis.call('ZADD', KEYS[2], oldest[2], ARGV[2])
end
if KEYS[3] ~= KEYS[1] and redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('DEL', KEYS[3])
end
return removed
