--#include _placement
--#include _events
--#include _fence
-- One board step of a verdict (``store.placing``): a run being placed offered its place on one board.
-- KEYS: the board's keys (``_placement``, one board), its versions and its placed runs, the webhook
-- outbox and the webhooks mark of the board's shard (``_events``).
-- ARGV: '1', the board's spec (``_placement``), the player, their version as read ('' for none),
-- the run's id, score and submission ms, the board's index among the run's boards (from 1), the
-- time (ms).
-- 'moved', changing nothing, if the player's fence moved since the version was read (``_fence``: the
-- caller reads the run again); 'known' if the board holds the run already (offered, or counted by a
-- recompute): nothing changes, no event; else 'placed': the run offered (a frozen board keeps its
-- places), the board noted as holding it, the player's offers counted, and a record.beaten event if
-- the run's player took the board's first place from another player.
local boards, k, a = boards_from(1, 1)
local versions, placed, outbox, hooks = KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
local player, read, run_id = ARGV[a], ARGV[a + 1], ARGV[a + 2]
local version = version_of(versions, player)
if fence_of(version) ~= fence_of(read) then
  return 'moved'
end
if redis.call('SISMEMBER', placed, run_id) == 1 then
  return 'known'
end
redis.call('SADD', placed, run_id)
move_version(versions, player, version, 0, 1)
local taken = events_wanted(hooks) and {} or nil
place_verified({id = run_id, status = 'verified', player = player, score = tonumber(ARGV[a + 3]),
                ms = tonumber(ARGV[a + 4])}, boards, taken)
if taken then
  for _, beaten in ipairs(taken) do
    beaten.board = tonumber(ARGV[a + 5])
    beaten.event, beaten.run_id, beaten.at_ms = 'record.beaten', run_id, ARGV[a + 6]
    record_event(outbox, beaten)
  end
end
return 'placed'
