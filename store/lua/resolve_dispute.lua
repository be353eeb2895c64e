--#include _audit
--#include _places
--#include _void
-- KEYS: dispute, open disputes, resolved disputes, run, the webhook outbox
-- and the webhooks index (``_events``: a run newly voided is an event), the
-- public log's two keys (``_log``), the keys of the boards the run counts on
-- (``_placement``), player-runs, then every run of the player.
-- ARGV: moderator, decision (uphold, void), note, time (ms), the open status,
-- the resolved status, the name of the event of a run voided
-- (``domain.events``), a void's leaf in the public log around its index (two
-- items, ``_log``; empty to uphold), then the boards and the runs on each (``_places``).
-- 'resolved' if the dispute already is; 'pending' to void a run with no verdict yet.
local boards, player_runs = recomputed_boards(9, 10)
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[5] then
  return 'resolved'
end
local status = redis.call('HGET', KEYS[4], 'status')
if ARGV[2] == 'void' and status == 'pending' then
  return 'pending'
end
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
local before = snapshot(KEYS[4])
local dispute_id = redis.call('HGET', KEYS[1], 'id')
redis.call('HSET', KEYS[1], 'status', ARGV[6], 'decision', ARGV[2], 'note', ARGV[3], 'moderator', ARGV[1],
  'resolved_ms', ARGV[4])
redis.call('ZREM', KEYS[2], dispute_id)
redis.call('ZADD', KEYS[3], redis.call('HGET', KEYS[1], 'filed_ms'), dispute_id)
local event = 'upheld'
if ARGV[2] == 'void' then
  event = 'voided'
  if status ~= 'void' then
    void_run(KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], ARGV[8], ARGV[9], ARGV[7],
      redis.call('HGET', KEYS[1], 'run_id'), ARGV[4])
  end
  place(KEYS[4], boards, player_runs + 1)
end
audit(KEYS[4], event, 'moderator', ARGV[1], ARGV[4], before, snapshot(KEYS[4]),
  {dispute_id = dispute_id, note = ARGV[3]})
return 'ok'
