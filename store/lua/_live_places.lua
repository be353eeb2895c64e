--#include _placement
--#include _live
-- Places lost (``place.lost``): when a verified run takes its player a better place on a board ranked by
-- best run, the player whose place it took, now just below them, is told. Only a run better than the
-- player's own place there (``outranks``, as ``_placement`` offers it) is looked at further, so a run that
-- is no personal best costs each such board one read.

-- The player's place held on each best board not frozen, before run ``r`` (``place_verified``'s) is placed:
-- the boards where ``r`` outranks it, by index, each with the place (false for none).
local function live_held(boards, r)
  local packed, held = pack_rank(r.score, r.ms), {}
  for i, board in ipairs(boards) do
    if board.order == 'best' and not board.frozen then
      local place = redis.call('ZSCORE', board.keys[1], r.player)
      if outranks(packed, place and tonumber(place) or nil) then held[i] = place end
    end
  end
  return held
end

-- Once ``r`` is placed: on each board of ``held`` (``live_held``) where its player rose, a ``place.lost``
-- event for the player now just below them (``board``: its index among the run's boards; ``place``: 1 for
-- first), kept in the streams under ``prefix``. It names the run, not its player: a stream shows who ran
-- it as the run is now (``service.live``), so an erased player is named in no one's stream.
local function live_passed(prefix, boards, r, held)
  for i, before in pairs(held) do
    local places = boards[i].keys[1]
    local rank = redis.call('ZREVRANK', places, r.player)
    local passed = rank and redis.call('ZREVRANGE', places, rank + 1, rank + 1, 'WITHSCORES')
    -- passed if they were above the player's place before (or the player had none)
    if passed and passed[1] and (not before or tonumber(passed[2]) > tonumber(before)) then
      live_event(prefix, passed[1], cjson.encode({type = 'place.lost', run_id = r.id, board = i, place = rank + 2}))
    end
  end
end
