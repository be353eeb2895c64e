--#include _archived_filter
--#include _new_run
-- KEYS: idempotency key (any key when there is none), the key naming the
-- player's run of this game when its id is not derived from them
-- (``keys.submission``), run, player runs, pending runs,
-- metrics, intake, the token key of the request (any key when it is not
-- checked here), the archived-runs filter (a bit of it says it is whole), the player's ban
-- (``keys.ban``; any key when it does not count).
-- ARGV: run id, fingerprint, submission time (ms), the Idempotency-Key's
-- lifetime in seconds ("" when there is none), "1" if the archive holds
-- the run, "0" if it does not, "" to ask the archived-runs filter, the player, the new run's entry to
-- push onto the intake (a single submission: a dispatcher queues its job; "" for none), "1" to check that the token
-- key still names the player, the player's ban as the caller found it
-- ended ("" for none), then the run's fields as name/value pairs (its audit
-- log's first entry among them).
-- Accepts a submission once: {'new'}, {'existing', run id} when the player
-- already submitted this game (its run id, derived from the player and the
-- game, is taken, in Redis or in the archive; or its submission key names a
-- run kept under an id of its own; or this Idempotency-Key named it),
-- {'conflict'} when the Idempotency-Key names a different game, or
-- {'unauthorized'} when the token checked names no one or someone else
-- (revoked since the API learnt whose it was), {'banned', the ban as kept}
-- when the player has a ban other than the one the caller found ended
-- (whether a ban is in force is the caller's to say: ``store.sanctions``;
-- nothing is stored), or {'ask_archive'} when the
-- filter says the archive may hold the run (or is not whole yet): nothing
-- is stored then, and the caller asks the archive and tries again. A new
-- run is listed in its player's runs first (``listed_anew``), which tells
-- one Redis holds from one it does not in the same command; a run then
-- left to the archive's answer is taken out again. A
-- run not pushed onto the intake (a batch's) names the job its caller
-- queues once the batch is stored.
-- The four strings a submission may need, read at once: the token's holder, the Idempotency-Key's
-- run, the run named under its game (each heeded only where its ARGV says it counts: a key not used is
-- the metrics hash, which MGET answers with nil), the player's ban.
local token_holder, held, named, ban = unpack(redis.call('MGET', KEYS[8], KEYS[1], KEYS[2], KEYS[10]))
if ARGV[8] == '1' and token_holder ~= ARGV[6] then
  return {'unauthorized'}
end
if ban and ban ~= ARGV[9] then
  return {'banned', ban}
end
local existing = false
if ARGV[4] ~= '' and held then
  local space = string.find(held, ' ', 1, true)
  if string.sub(held, space + 1) ~= ARGV[2] then
    return {'conflict'}
  end
  existing = string.sub(held, 1, space - 1)
end
if not existing and ARGV[5] == '1' then
  existing = ARGV[1]
end
if not existing then
  existing = named
end
-- listed in the player's runs now, as a new run is; already there: Redis holds the run
if not existing and not listed_anew(KEYS[4], ARGV[3], ARGV[1]) then
  existing = ARGV[1]
end
if not existing and ARGV[5] == '' and may_be_archived(KEYS[9], ARGV[1]) then
  redis.call('ZREM', KEYS[4], ARGV[1])
  return {'ask_archive'}
end
if existing then
  redis.call('HINCRBY', KEYS[6], 'submissions:duplicate', 1)
  return {'existing', existing}
end
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[4])
end
store_new_run({KEYS[3], KEYS[5], KEYS[6], KEYS[7]}, ARGV[1], ARGV[3], ARGV[7], {unpack(ARGV, 10)})
return {'new'}
