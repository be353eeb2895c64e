-- A player's version on a board (``store.placing``): ``<fence>.<offers>``, '' for none (a bare
-- number is a fence with no offers). Offers (a verdict's board steps) commute, so they move only
-- the offers count and check only the fence: runs of one player placed side by side never refuse
-- each other. Recomputes and the end of a run's placing move the fence, which refuses every step
-- that read before them; a recompute checks the whole version, offers included.
local function version_of(versions, player)
  return redis.call('HGET', versions, player) or ''
end

local function fence_of(version)
  return tonumber(string.match(version, '^[^.]*')) or 0
end

-- Store the player's ``version`` (as it stands) with its fence moved by ``fences`` and its offers
-- count by ``offers``.
local function move_version(versions, player, version, fences, offers)
  local count = tonumber(string.match(version, '%.(%d+)$')) or 0
  redis.call('HSET', versions, player, (fence_of(version) + fences) .. '.' .. (count + offers))
end
