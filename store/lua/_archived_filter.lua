-- Shared by the scripts that note or ask which runs the archive may hold:
-- a Bloom filter of run ids in one bitmap (``keys.archived_filter``),
-- each id four bits of it, where 28-bit slices of the id's SHA-1 fall. A
-- run the archive holds always finds its four bits set; one it does not
-- finds them all set only by chance (at 1.5 million archived runs, under
-- 1 in 100), and is then looked up in the archive all the same. The bit
-- after a run's last is not a run's: set once the filter is whole
-- (``store.runs.archived_filter``), so that one BITFIELD reads it with a
-- run's four bits.
local ARCHIVED_FILTER_BITS = 33554432  -- 2^25 bits: 4 MiB of Redis
local ARCHIVED_FILTER_WHOLE = ARCHIVED_FILTER_BITS  -- the bit saying the filter is whole (``archived_filter.WHOLE``)

local function archived_filter_bits(run_id)
  local digest, bits = redis.sha1hex(run_id), {}
  for i = 0, 3 do
    bits[i + 1] = tonumber(string.sub(digest, i * 7 + 1, i * 7 + 7), 16) % ARCHIVED_FILTER_BITS
  end
  return bits
end

-- Whether the archive may hold ``run_id``: yes while the filter is not whole, else yes if its four bits
-- are set. One BITFIELD_RO.
local function may_be_archived(filter_key, run_id)
  local asked = {'GET', 'u1', ARCHIVED_FILTER_WHOLE}
  for _, bit in ipairs(archived_filter_bits(run_id)) do
    asked[#asked + 1], asked[#asked + 2], asked[#asked + 3] = 'GET', 'u1', bit
  end
  local read = redis.call('BITFIELD_RO', filter_key, unpack(asked))
  for _, set in ipairs(read) do
    if set == 0 then return read[1] == 0 end
  end
  return true
end
