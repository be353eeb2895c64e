-- The public log (``store.log``): a change's leaf appended to the leaves Redis holds, its index the count of
-- leaves moved to the archive before them plus its place in the list, and the run's ``log_index`` set to it.
-- A leaf comes as its canonical text split where its index goes (``domain.transparency.Leaf.text_around_index``).
local log_next = nil  -- the index the next leaf takes: read once a script

local function append_leaf(leaves_key, moved_key, run_key, head, tail)
  if log_next == nil then
    log_next = tonumber(redis.call('GET', moved_key) or '0') + redis.call('LLEN', leaves_key)
  end
  redis.call('RPUSH', leaves_key, head .. log_next .. tail)
  redis.call('HSET', run_key, 'log_index', log_next)
  log_next = log_next + 1
end
