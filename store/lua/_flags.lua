-- Shared by the scripts that raise a flag for moderators (``store.moderation.flags``).
-- ``add_flag`` stores a new flag and lists it; ``keep_newest`` forgets the
-- oldest flags past the cap, so that flags take a bounded share of Redis.

-- The words of a space-separated list.
local function words(text)
  local found = {}
  for word in string.gmatch(text or '', '%S+') do found[#found + 1] = word end
  return found
end

-- Stores flag ``id`` at ``flag_key`` (``fields``: name/value pairs; its id
-- too), lists it in each of ``indexes`` at time ``raised``, and in each run's
-- run-flags set.
local function add_flag(flag_key, id, fields, raised, indexes, runs, run_flags_prefix)
  redis.call('HSET', flag_key, 'id', id, unpack(fields))
  for _, index in ipairs(indexes) do redis.call('ZADD', index, raised, id) end
  for _, run in ipairs(runs) do redis.call('SADD', run_flags_prefix .. run, id) end
end

-- While ``every`` (the index of every flag) holds more than ``cap`` flags, the
-- oldest leaves each of ``indexes`` and its runs' run-flags sets, and its hash goes.
local function keep_newest(every, cap, indexes, flag_prefix, run_flags_prefix)
  local over = redis.call('ZCARD', every) - tonumber(cap)
  if over <= 0 then return end
  for _, id in ipairs(redis.call('ZRANGE', every, 0, over - 1)) do
    for _, run in ipairs(words(redis.call('HGET', flag_prefix .. id, 'runs'))) do
      redis.call('SREM', run_flags_prefix .. run, id)
    end
    for _, index in ipairs(indexes) do redis.call('ZREM', index, id) end
    redis.call('DEL', flag_prefix .. id)
  end
end
