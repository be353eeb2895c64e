-- The public log (``store.log``): a change's leaf appended to the leaves Redis holds, its index the log's size
-- before it (the size a counter of its own): two commands a leaf.
-- A leaf comes as its canonical text split where its index goes (``domain.transparency.Leaf.text_around_index``).
local function append_leaf(size_key, leaves_key, head, tail)
  local index = redis.call('INCR', size_key) - 1
  redis.call('RPUSH', leaves_key, head .. index .. tail)
end
