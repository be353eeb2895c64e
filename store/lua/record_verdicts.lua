--#include _audit
--#include _placement
--#include _events
--#include _live_places
--#include _log
-- A job's verdicts, each with its audit entry, its counts and its board places, in one script.
-- KEYS: pending runs, metrics, latency, the webhook outbox and the webhooks
-- index (``_events``), the jobs of runs taken from the intake, the live
-- streams' prefix and the live channel (``_live``, ``_live_places``), the
-- players with runs (``keys.run_players``), then for each run its key and the keys of the boards it counts on (``_placement``);
-- last, the public log's two keys (``_log``).
-- ARGV: the worker's name, the time (ms), the names of the events of a run
-- verified (also its live event's type) and of a record beaten
-- (``domain.events``), the live event's type of a run rejected
-- (``store.live.events``), how many runs, then for each run:
-- its id, its player as judged, its verdict's metrics field, its latency bucket and latency
-- (seconds), the boards (their count, then their orders: ``_placement``),
-- how many ARGV items its verdict's fields take, then those fields as
-- alternating name/value pairs; last, each run's leaf in the public log, two
-- items a run (``_log``).
-- Empty fields are not stored, nor the job fields a pending run needs (dropped
-- only where the run holds them: a single submission's hash has neither,
-- ``store.queue.intake``), nor the verdict's time (its audit entry's, ``store.runs.audit.verdict_ms``).
-- A verdict is written once, with its audit entry and its counts: a run no
-- longer pending, or no longer its player's as judged (renamed since its job read it: ``worker.jobs``, whose
-- job may carry a run from its submission), is left alone, so a job that runs twice changes nothing
-- (either way the run leaves the pending index and the jobs of runs taken from
-- the intake: the job's runs in one ZREM and one HDEL), and the players of the verdicts
-- written join the players with runs, scored by their runs' submission (``LT``: a player's oldest run), in
-- one ZADD (a new run's script leaves that to its verdict: ``_new_run``). A verified run is offered
-- to every board it counts on (``_placement``); while webhooks are registered,
-- its event of a run verified and an event of a record beaten per board whose
-- first place it took from another player (naming the board) go to the outbox. The counts of the
-- verdicts written are added once a field, after them all. Answers a list:
-- 1 for each run whose verdict it wrote, 0 for each left alone.
local worker, at, verified_event, beaten_event = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local rejected_event = ARGV[5]
local key, arg = 10, 7
local answers, metrics, buckets, written_count, latency_sum = {}, {}, {}, 0, 0
local judged = {}  -- the runs' ids, to leave the pending index in one ZREM
local joined = {}  -- each written verdict's submission time and player, to join the players with runs in one ZADD
local hooks = nil  -- whether webhooks are registered: asked once, at the first verified run

-- One run's verdict at KEYS[run_key] and ARGV[a..]: 1 if written, 0 if not; the next KEYS and ARGV indexes.
local function record(run_key, a)
  local run_id, judged_player, metric, bucket, latency = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local boards, next_key, fields_at = boards_from(run_key + 1, a + 5)
  local fields_end = fields_at + tonumber(ARGV[fields_at])
  -- the run read once: its verdict fields (``SNAPSHOT_FIELDS``), then its log, player and submission time,
  -- and the fields only a pending run has (its job and request: a batch's run, or one queued alone)
  local read = redis.call('HMGET', KEYS[run_key], 'status', 'outcome', 'score', 'health', 'error', 'voided_status',
                          'log', 'player', 'submitted_ms', 'job', 'request_id')
  if read[1] ~= 'pending' or read[8] ~= judged_player then
    return 0, next_key, fields_end + 1
  end
  local before = snapshot_of(read)
  local fields, dropped = {}, {}  -- the fields the run holds that its verdict leaves out: dropped in one HDEL
  if read[10] then dropped[#dropped + 1] = 'job' end
  if read[11] then dropped[#dropped + 1] = 'request_id' end
  local written = {}  -- the run's fields as this script leaves them, by name
  for i, name in ipairs(SNAPSHOT_FIELDS) do written[name] = read[i] end
  for i = fields_at + 1, fields_end, 2 do
    if ARGV[i + 1] == '' then
      if written[ARGV[i]] ~= false then  -- held, or not read: a field read as absent has nothing to drop
        dropped[#dropped + 1] = ARGV[i]
      end
      written[ARGV[i]] = false
    else
      fields[#fields + 1] = ARGV[i]
      fields[#fields + 1] = ARGV[i + 1]
      written[ARGV[i]] = ARGV[i + 1]
    end
  end
  local values = {}
  for i, name in ipairs(SNAPSHOT_FIELDS) do values[i] = written[name] end
  local after = snapshot_of(values)
  fields[#fields + 1] = 'log'  -- the audit entry written with the verdict, in one HSET
  fields[#fields + 1] = audited_log(KEYS[run_key], after.status, 'worker', worker, at, before, after, {},
                                    {read[7], read[8], read[9], now = after})
  redis.call('HSET', KEYS[run_key], unpack(fields))
  if #dropped > 0 then
    redis.call('HDEL', KEYS[run_key], unpack(dropped))
  end
  joined[#joined + 1], joined[#joined + 2] = read[9], read[8]
  metrics[metric] = (metrics[metric] or 0) + 1
  buckets[bucket] = (buckets[bucket] or 0) + 1
  written_count, latency_sum = written_count + 1, latency_sum + tonumber(latency)
  if after.status == 'verified' then
    if hooks == nil then hooks = events_wanted(KEYS[5]) end
    local taken = hooks and {} or nil
    local r = {id = run_id, status = 'verified', player = read[8], score = tonumber(written.score),
               ms = tonumber(read[9])}
    live_passed(KEYS[7], boards, r, place_verified(r, boards, taken))
    if taken then
      record_event(KEYS[4], {event = verified_event, run_id = run_id, at_ms = at})
      for _, beaten in ipairs(taken) do
        beaten.event, beaten.run_id, beaten.at_ms = beaten_event, run_id, at
        record_event(KEYS[4], beaten)
      end
    end
  end
  live_event(KEYS[7], read[8], cjson.encode({type = after.status == 'verified' and verified_event or rejected_event,
                                             run_id = run_id, status = after.status}))
  return 1, next_key, fields_end + 1
end

local leaves_at = #ARGV - 2 * tonumber(ARGV[6])  -- a written verdict's leaf goes to the public log
local leaves = {}
for i = 1, tonumber(ARGV[6]) do
  judged[i] = ARGV[arg]
  answers[i], key, arg = record(key, arg)
  if answers[i] == 1 then
    leaves[#leaves + 1], leaves[#leaves + 2] = ARGV[leaves_at + 2 * i - 1], ARGV[leaves_at + 2 * i]
  end
end
append_leaves(KEYS[#KEYS - 1], KEYS[#KEYS], leaves)
redis.call('ZREM', KEYS[1], unpack(judged))
redis.call('HDEL', KEYS[6], unpack(judged))
if #joined > 0 then redis.call('ZADD', KEYS[9], 'LT', unpack(joined)) end
for field, count in pairs(metrics) do redis.call('HINCRBY', KEYS[2], field, count) end
for field, count in pairs(buckets) do redis.call('HINCRBY', KEYS[3], field, count) end
if written_count > 0 then
  redis.call('HINCRBY', KEYS[3], 'count', written_count)
  redis.call('HINCRBYFLOAT', KEYS[3], 'sum', latency_sum)
end
live_publish(KEYS[8])
return answers
