--#include _events
--#include _log
-- A void (a dispute's ``void`` or a moderator's own): the run's status becomes ``void``, its verdict kept
-- under it (``voided_status``), its leaf appended to the public log (``_log``) and its event recorded for the
-- webhooks that take it (``_events``). Its caller recomputes the player's places and writes the audit entry.
local function void_run(run, outbox, hooks, log_size, log_leaves, head, tail, event, run_id, at_ms)
  redis.call('HSET', run, 'status', 'void', 'voided_status', redis.call('HGET', run, 'status'))
  append_leaf(log_size, log_leaves, head, tail)
  if events_wanted(hooks) then
    record_event(outbox, {event = event, run_id = run_id, at_ms = at_ms})
  end
end
