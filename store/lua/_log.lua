-- The public log (``store.log``): a change's leaf appended to the leaves Redis holds, its index the log's size
-- before it (the size a counter of its own): two commands a leaf, or two for a script's leaves together.
-- A leaf comes as its canonical text split where its index goes (``domain.transparency.Leaf.text_around_index``).

-- Leaves appended in order, each as ``append_leaf`` takes it (``parts``: a head, then its tail, a leaf after
-- another).
local function append_leaves(size_key, leaves_key, parts)
  local count = #parts / 2
  if count == 0 then return end
  local first = redis.call('INCRBY', size_key, count) - count
  local texts = {}
  for i = 1, count do texts[i] = parts[2 * i - 1] .. (first + i - 1) .. parts[2 * i] end
  redis.call('RPUSH', leaves_key, unpack(texts))
end

local function append_leaf(size_key, leaves_key, head, tail)
  append_leaves(size_key, leaves_key, {head, tail})
end
