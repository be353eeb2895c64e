-- KEYS: the player, the player's Idempotency-Key (the player's key when
-- there is none), the key naming the player's run of this game when its id
-- is not derived from them (``keys.submission``). All of the player's shard.
-- ARGV: the request's token hash ("" when it is not checked here), the
-- game's fingerprint, the Idempotency-Key's lifetime in seconds ("" when
-- there is none), the run id the player and the game give.
-- The first step of accepting a submission (``store.runs``), in the
-- player's shard: {'unauthorized'} when the token checked is not the
-- player's (revoked since the API learnt whose it was), {'conflict'} when
-- the Idempotency-Key names a different game: nothing is stored then.
-- Else {'claimed', run id}: the id the Idempotency-Key or the submission
-- key names, or the one given; an Idempotency-Key not yet held now names
-- that run, so a retry with it finds the same run.
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'token_hash') ~= ARGV[1] then
  return {'unauthorized'}
end
if ARGV[3] ~= '' then
  local held = redis.call('GET', KEYS[2])
  if held then
    local space = string.find(held, ' ', 1, true)
    if string.sub(held, space + 1) ~= ARGV[2] then
      return {'conflict'}
    end
    return {'claimed', string.sub(held, 1, space - 1)}
  end
end
local run_id = redis.call('GET', KEYS[3]) or ARGV[4]
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[2], run_id .. ' ' .. ARGV[2], 'EX', ARGV[3])
end
return {'claimed', run_id}
