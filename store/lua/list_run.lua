-- KEYS: player-runs, players with runs (the player's shard's), the key naming the run
-- under its game (``keys.submission``, for a run whose id is not derived from its player
-- and game; else the player-runs key again). All of the player's shard.
-- ARGV: run id, submission time (ms), player.
-- Puts a run in its player's run list, scores the player among the players with runs by
-- their oldest, and names the run under its game where nothing is named there: steps 1 and
-- 3 of putting an archived run back (``store.runs.reinstate_run``). Idempotent.
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], 'LT', ARGV[2], ARGV[3])
if KEYS[3] ~= KEYS[1] then
  redis.call('SET', KEYS[3], ARGV[1], 'NX')
end
return 1
