-- Shared by the scripts that change a run: ``snapshot`` is the run's verdict
-- as its audit entries show it before and after a change (a void run keeps
-- its verdict under ``voided_status``): the one list, in Lua, of the verdict
-- fields that matter (Python's is ``store.verdicts.verdict_summary``).
-- ``audit`` appends one entry to the run's audit log.
local function present(value)
  if value and value ~= '' then return value end
  return cjson.null
end

-- The verdict fields a snapshot is made of, in the order ``snapshot_of`` reads them.
local SNAPSHOT_FIELDS = {'status', 'outcome', 'score', 'health', 'error', 'voided_status'}

-- The snapshot of a run whose ``SNAPSHOT_FIELDS`` hold ``r`` (a list in their order, false for none).
local function snapshot_of(r)
  local code = cjson.null
  if r[5] and r[5] ~= '' then code = cjson.decode(r[5]).code end
  local view = {status = present(r[1]), outcome = present(r[2]), score = cjson.null, health = cjson.null,
                error = code}
  if present(r[3]) ~= cjson.null then view.score = tonumber(r[3]) end
  if present(r[4]) ~= cjson.null then view.health = tonumber(r[4]) end
  if r[1] == 'void' then view.voided_status = present(r[6]) end
  return view
end

local function snapshot(run_key)
  return snapshot_of(redis.call('HMGET', run_key, unpack(SNAPSHOT_FIELDS)))
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

-- A snapshot as the log holds it (``store.runs.audit``): comma-joined fields, '' for
-- null, trailing nulls left out (but the first comma).
local function snapshot_text(view)
  local parts = {}
  for i, name in ipairs({'status', 'outcome', 'score', 'health', 'error', 'voided_status'}) do
    local value = view[name]
    if i <= 5 or view.status == 'void' then
      if value == nil or value == cjson.null then value = '' end
      parts[#parts + 1] = tostring(value)
    end
  end
  while #parts > 2 and parts[#parts] == '' do parts[#parts] = nil end
  return table.concat(parts, ',')
end

-- The fields of a log entry (``store.runs.audit``): the entry's text split at
-- '\31', left-out trailing fields as '', the submission's own entry ('s') spelt out.
local function entry_fields(text)
  if text == 's' then text = 'submitted\31player\31\0310\31\31pending' end
  local fields, start = {}, 1
  while true do
    local stop = string.find(text, '\31', start, true)
    if not stop then break end
    fields[#fields + 1] = string.sub(text, start, stop - 1)
    start = stop + 1
  end
  fields[#fields + 1] = string.sub(text, start)
  for i = #fields + 1, 7 do fields[i] = '' end
  return fields
end

-- An entry's text from its fields: trailing empty fields left out.
local function entry_text(fields)
  local last = #fields
  while last > 1 and fields[last] == '' do last = last - 1 end
  return table.concat(fields, '\31', 1, last)
end

-- The run's audit log with one more entry: the ``log`` field of its hash,
-- encoded as ``store.runs.audit`` reads it, for the caller to write along
-- with the change it tells of (``audit`` writes it). ``known``, when the
-- caller read them already: ``{log, player, submitted_ms}`` and ``now``, the
-- run's snapshot as it stands.
local function audited_log(run_key, event, actor_kind, actor, at, before, after, detail, known)
  local r = known or redis.call('HMGET', run_key, 'log', 'player', 'submitted_ms')
  local log = r[1] or ''
  local before_text = snapshot_text(before)
  if log ~= '' then
    local start = 1  -- of the last entry
    while string.find(log, '\30', start, true) do start = string.find(log, '\30', start, true) + 1 end
    local last = entry_fields(string.sub(log, start))
    if last[6] == '' then  -- the run's snapshot until now, which is ``before``: written out now
      last[6] = before_text
      log = string.sub(log, 1, start - 1) .. entry_text(last)
    end
    if before_text == last[6] then before_text = '' end
  end
  if actor_kind == 'player' and actor == r[2] then actor = '' end
  -- the last entry's after is the run's snapshot as it stands
  local after_text = ''
  local now = known and known.now or snapshot(run_key)
  if snapshot_text(after) ~= snapshot_text(now) then after_text = snapshot_text(after) end
  local detail_text = cjson.encode(detail)
  if detail_text == '{}' then detail_text = '' end
  local entry = entry_text({event, actor_kind, actor, string.format('%.0f', tonumber(at) - tonumber(r[3])),
    before_text, after_text, detail_text})
  if log ~= '' then entry = '\30' .. entry end
  return log .. entry
end

-- Appends one entry to the run's audit log (``audited_log``).
local function audit(run_key, event, actor_kind, actor, at, before, after, detail, known)
  redis.call('HSET', run_key, 'log', audited_log(run_key, event, actor_kind, actor, at, before, after, detail, known))
end
