-- KEYS: idempotency key (any key when there is none), submission, run,
-- player runs, all runs, audit, pending runs, metrics.
-- ARGV: run id, fingerprint, submission time (ms), the Idempotency-Key's
-- lifetime in seconds ("" when there is none), the number n of the run's
-- field pairs, the run's 2n field names and values, then the audit entry's
-- fields as name/value pairs.
-- Accepts a submission once: {'new'}, {'existing', run id} when the player
-- already submitted this game (or this Idempotency-Key for it), or
-- {'conflict'} when the Idempotency-Key names a different game. It runs in
-- the same MULTI as the run's RQ job, which drop_unclaimed_job then removes
-- unless a run was created for it.
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
if not existing then
  existing = redis.call('GET', KEYS[2])
end
if existing then
  redis.call('HINCRBY', KEYS[8], 'submissions:duplicate', 1)
  return {'existing', existing}
end
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[4])
end
local pairs_end = 5 + 2 * tonumber(ARGV[5])
local fields = {}
for i = 6, pairs_end do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[3], unpack(fields))
local entry = {}
for i = pairs_end + 1, #ARGV do entry[#entry + 1] = ARGV[i] end
redis.call('XADD', KEYS[6], '*', unpack(entry))
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[7], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[8], 'submissions:accepted', 1)
return {'new'}
