-- The public log (``store.log``): a change's leaf appended to the leaves Redis holds, its index the log's size
-- before it (the size a counter of its own), and the run's ``log_index`` set to it: three commands a leaf.
-- A leaf comes as its canonical text split where its index goes (``domain.transparency.Leaf.text_around_index``).
local function append_leaf(size_key, leaves_key, run_key, head, tail)
  local index = redis.call('INCR', size_key) - 1
  redis.call('RPUSH', leaves_key, head .. index .. tail)
  redis.call('HSET', run_key, 'log_index', index)
end
