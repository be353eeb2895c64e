--#include _archived_filter
--#include _new_run
-- KEYS: idempotency key (any key when there is none), the key naming the
-- player's run of this game when its id is not derived from them
-- (``keys.submission``), run, player runs, players with runs, pending runs,
-- metrics, intake, the token key of the request (any key when it is not
-- checked here), the archived-runs filter, the key saying it is whole.
-- ARGV: run id, fingerprint, submission time (ms), the Idempotency-Key's
-- lifetime in seconds ("" when there is none), "1" if the archive holds
-- the run, "0" if it does not, "" to ask the archived-runs filter, the player, "1" to push a new run onto the intake (a single
-- submission: a dispatcher queues its job), "1" to check that the token
-- key still names the player, then the run's fields as name/value pairs
-- (its audit log's first entry among them).
-- Accepts a submission once: {'new'}, {'existing', run id} when the player
-- already submitted this game (its run id, derived from the player and the
-- game, is taken, in Redis or in the archive; or its submission key names a
-- run kept under an id of its own; or this Idempotency-Key named it),
-- {'conflict'} when the Idempotency-Key names a different game, or
-- {'unauthorized'} when the token checked names no one or someone else
-- (revoked since the API learnt whose it was), or {'ask_archive'} when the
-- filter says the archive may hold the run (or is not whole yet): nothing
-- is stored then, and the caller asks the archive and tries again. A
-- run not pushed onto the intake (a batch's) names the job its caller
-- queues once the batch is stored.
if ARGV[8] == '1' and redis.call('GET', KEYS[9]) ~= ARGV[6] then
  return {'unauthorized'}
end
local existing = false
if ARGV[4] ~= '' then
  local held = redis.call('GET', KEYS[1])
  if held then
    local space = string.find(held, ' ', 1, true)
    if string.sub(held, space + 1) ~= ARGV[2] then
      return {'conflict'}
    end
    existing = string.sub(held, 1, space - 1)
  end
end
if not existing and ARGV[5] == '1' then
  existing = ARGV[1]
end
if not existing then
  existing = redis.call('GET', KEYS[2])
end
if not existing and redis.call('EXISTS', KEYS[3]) == 1 then
  existing = ARGV[1]
end
if not existing and ARGV[5] == '' and
    (redis.call('EXISTS', KEYS[11]) == 0 or may_be_archived(KEYS[10], ARGV[1])) then
  return {'ask_archive'}
end
if existing then
  redis.call('HINCRBY', KEYS[7], 'submissions:duplicate', 1)
  return {'existing', existing}
end
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[4])
end
store_new_run({KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]}, ARGV[1], ARGV[6], ARGV[3], ARGV[7] == '1',
              {unpack(ARGV, 9)})
return {'new'}
