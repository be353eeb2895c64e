-- A new run stored with its way to a verdict, in the script that makes it: its hash (``fields``:
-- alternating names and values, its audit log's first entry among them) and, unless its ``intake_entry``
-- is "", that entry on the intake (``store.queue.intake``: a dispatcher queues one job for
-- many, and, as it takes them, puts them among the pending runs and counts them as accepted, one
-- command each a job); else the pending runs and the count here. Its place in its player's runs is
-- ``listed_anew``'s, which the caller makes first; its player joins the players with runs with its
-- verdict (``record_verdicts``, once a job) or its error (``mark_error``): a run waits for neither
-- outside the intake and the pending runs, where the walks of every run find it (``store.runs.index``).
-- ``k``: the keys, {run, pending runs, metrics, intake}.
local function store_new_run(k, run_id, submitted_ms, intake_entry, fields)
  redis.call('HSET', k[1], unpack(fields))
  if intake_entry ~= '' then
    redis.call('RPUSH', k[4], intake_entry)
  else
    redis.call('ZADD', k[2], submitted_ms, run_id)
    redis.call('HINCRBY', k[3], 'submissions:accepted', 1)
  end
end

-- Puts ``run_id`` in its player's runs (``player_runs``), scored by its submission time, unless it is
-- there: whether it was not. A run Redis holds is always in its player's runs (the scripts that store a
-- run list it, those that drop one take it out), so this one write also answers "does Redis hold this
-- run already?" for the accept script.
local function listed_anew(player_runs, submitted_ms, run_id)
  return redis.call('ZADD', player_runs, 'NX', submitted_ms, run_id) == 1
end
