-- Shared by the scripts that note or ask which runs the archive may hold:
-- a Bloom filter of run ids in one bitmap (``keys.archived_filter``),
-- each id four bits of it, where 28-bit slices of the id's SHA-1 fall. A
-- run the archive holds always finds its four bits set; one it does not
-- finds them all set only by chance (at 1.5 million archived runs, under
-- 1 in 100), and is then looked up in the archive all the same.
local ARCHIVED_FILTER_BITS = 33554432  -- 2^25 bits: 4 MiB of Redis once the first high bit is set

local function archived_filter_bits(run_id)
  local digest, bits = redis.sha1hex(run_id), {}
  for i = 0, 3 do
    bits[i + 1] = tonumber(string.sub(digest, i * 7 + 1, i * 7 + 7), 16) % ARCHIVED_FILTER_BITS
  end
  return bits
end

local function may_be_archived(filter_key, run_id)
  for _, bit in ipairs(archived_filter_bits(run_id)) do
    if redis.call('GETBIT', filter_key, bit) == 0 then
      return false
    end
  end
  return true
end
