--#include _audit
--#include _places
--#include _void
-- KEYS: run, the webhook outbox and the webhooks index (``_events``), the public log's two keys (``_log``), the
-- keys of the boards the run counts on (``_placement``), player-runs, then every run of the player.
-- ARGV: moderator, the moderator's reason, time (ms), the name of the event of a run voided
-- (``domain.events``), the void's leaf in the public log around its index (two items, ``_log``), the run's id,
-- then the boards and the runs on each (``_places``).
-- A moderator's void with no dispute: as a dispute's void, off every board, the player's next best run taking
-- the place. 'void' if the run is void already, 'pending' for a run with no verdict yet.
local boards, player_runs = recomputed_boards(6, 8)
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'void' or status == 'pending' then
  return status
end
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
local before = snapshot(KEYS[1])
void_run(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[5], ARGV[6], ARGV[4], ARGV[7], ARGV[3])
place(KEYS[1], boards, player_runs + 1)
audit(KEYS[1], 'voided', 'moderator', ARGV[1], ARGV[3], before, snapshot(KEYS[1]), {note = ARGV[2]})
return 'ok'
