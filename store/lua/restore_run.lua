--#include _audit
--#include _places
--#include _log
-- KEYS: run, the public log's two keys (``_log``), the keys of the boards the run counts on (``_placement``),
-- player-runs, then every run of the player. ARGV: moderator, time (ms), the restore's
-- leaf in the public log around its index (two items, ``_log``), the moderator's note (may be empty), then
-- the boards and the runs on each (``_places``).
-- Undoes a void: the run is back to its verdict and the player's places are
-- recomputed. 'not_void' if the run is not void.
local boards, player_runs = recomputed_boards(4, 6)
if redis.call('HGET', KEYS[1], 'status') ~= 'void' then
  return 'not_void'
end
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', redis.call('HGET', KEYS[1], 'voided_status'))
redis.call('HDEL', KEYS[1], 'voided_status')
append_leaf(KEYS[2], KEYS[3], ARGV[3], ARGV[4])
place(KEYS[1], boards, player_runs + 1)
local detail = {}
if ARGV[5] ~= '' then
  detail.note = ARGV[5]
end
audit(KEYS[1], 'restored', 'moderator', ARGV[1], ARGV[2], before, snapshot(KEYS[1]), detail)
return 'ok'
