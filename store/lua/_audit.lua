-- Shared by the scripts that change a run: ``snapshot`` is the run's verdict
-- as its audit entries show it before and after a change (a void run keeps
-- its verdict under ``voided_status``): the one list, in Lua, of the verdict
-- fields that matter (Python's is ``store.verdicts.verdict_summary``).
-- ``audit`` appends one entry to the run's audit stream.
local function present(value)
  if value and value ~= '' then return value end
  return cjson.null
end

local function snapshot(run_key)
  local r = redis.call('HMGET', run_key, 'status', 'outcome', 'score', 'health', 'error', 'voided_status')
  local code = cjson.null
  if r[5] and r[5] ~= '' then code = cjson.decode(r[5]).code end
  local view = {status = present(r[1]), outcome = present(r[2]), score = cjson.null, health = cjson.null,
                error = code}
  if present(r[3]) ~= cjson.null then view.score = tonumber(r[3]) end
  if present(r[4]) ~= cjson.null then view.health = tonumber(r[4]) end
  if r[1] == 'void' then view.voided_status = present(r[6]) end
  return view
end

-- Whether two snapshots differ in any field either of them has.
local function differs(before, after)
  for field, value in pairs(before) do
    if after[field] ~= value then return true end
  end
  for field, value in pairs(after) do
    if before[field] ~= value then return true end
  end
  return false
end

local function audit(stream, event, actor_kind, actor, at, before, after, detail)
  redis.call('XADD', stream, '*', 'event', event, 'actor_kind', actor_kind, 'actor', actor, 'at', at,
    'before', cjson.encode(before), 'after', cjson.encode(after), 'detail', cjson.encode(detail))
end
