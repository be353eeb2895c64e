-- KEYS: hashes of the boards kept as their sole place (``store.base.keys.every_sole_places``).
-- The names of their boards holding their one place there: every field but a ``SPREAD`` one (a board in
-- its two keys, which a SCAN finds). One round trip for a batch of hashes, most of them empty (absent).
--#include _sole
local names = {}
for _, hash in ipairs(KEYS) do
  local fields = redis.call('HGETALL', hash)
  for index = 1, #fields, 2 do
    if fields[index + 1] ~= SPREAD then
      names[#names + 1] = fields[index]
    end
  end
end
return names
