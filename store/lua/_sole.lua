-- A best or first board of a kind kept small (``domain.boards.Board.sole``) has a third key: the hash
-- holding, under the board's ``name``, its one place as ``<rank key> <player> <run id>`` (no run id: an
-- erased player's kept place) while it has one player's place and no sorted set (a board of many deals'
-- long tail is played by one player), and ``SPREAD`` while its places are in its two keys, so that one
-- HGET tells the board's form (an empty board: no field). A second player's place moves it into its two
-- keys (``_placement``'s ``spread``), and a removal that leaves one place moves it back (``gather``): a
-- board of one place is never in its two keys. ``k``: the board's keys.

-- A board's field while its places are in its two keys (``store.boards.cooling.SPREAD``'s value): no
-- packed rank key starts so.
local SPREAD = '*'

-- A board's one place as its hash holds it: {rank, player, run_id}.
local function sole_read(held)
  local packed, player, run_id = string.match(held, '^(%d+) (%S+) (%S*)$')
  return {rank = tonumber(packed), player = player, run_id = run_id}
end

-- A board's one place (``sole_read``); false for an empty board kept so; nil for a board in its sorted set
-- (or of a kind never kept so).
local function sole_of(k, name)
  if not k[3] then
    return nil
  end
  local held = redis.call('HGET', k[3], name)
  if held == SPREAD then
    return nil
  end
  return held and sole_read(held) or false
end

-- The board's one place set: the player's, ``packed`` (a number, or a rank key as read) held by ``run_id``.
local function keep_sole(k, name, player, packed, run_id)
  redis.call('HSET', k[3], name, string.format('%.0f', tonumber(packed)) .. ' ' .. player .. ' ' .. run_id)
end

-- A board of a kind kept so (``k[3]``) whose sorted set holds one place: that place moved into its field,
-- its two keys deleted; whose sorted set holds none (its last places removed at once): its field's
-- ``SPREAD`` deleted.
local function gather(k, name)
  if not k[3] then
    return
  end
  local count = redis.call('ZCARD', k[1])
  if count == 0 and redis.call('HGET', k[3], name) == SPREAD then
    redis.call('HDEL', k[3], name)
  end
  if count ~= 1 then
    return
  end
  local top = redis.call('ZRANGE', k[1], 0, 0, 'WITHSCORES')
  local run_id = redis.call('HGET', k[2], top[1]) or ''
  redis.call('DEL', k[1], k[2])
  keep_sole(k, name, top[1], top[2], run_id)
end
