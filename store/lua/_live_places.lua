--#include _placement
--#include _live
-- Places lost (``place.lost``): when a verified run takes its player a better place on a board ranked by
-- best run, the player whose place it took, now just below them, is told. Only the boards where the run
-- rose (``place_verified``'s answer) are looked at, so a run that is no personal best costs nothing here.

-- Once ``r`` is placed: on each board of ``risen`` (``place_verified``'s: the place held before, false for
-- none) a ``place.lost`` event for the player now just below them (``board``: its index among the run's
-- boards; ``place``: 1 for first), kept in the streams under ``prefix``: one read of the next lower rank key
-- (a place tied with the run's is not passed), and the rank only of a player passed. It names the run, not
-- its player: a stream shows who ran it as the run is now (``service.live``), so an erased player is named
-- in no one's stream.
local function live_passed(prefix, boards, r, risen)
  local packed = string.format('%.0f', pack_rank(r.score, r.ms))
  for i, before in pairs(risen) do
    local places = boards[i].keys[1]
    local passed = redis.call('ZREVRANGEBYSCORE', places, '(' .. packed, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
    -- passed if they were above the player's place before (or the player had none)
    if passed[1] and (not before or tonumber(passed[2]) > tonumber(before)) then
      local place = redis.call('ZREVRANK', places, passed[1]) + 1
      live_event(prefix, passed[1], cjson.encode({type = 'place.lost', run_id = r.id, board = i, place = place}))
    end
  end
end
