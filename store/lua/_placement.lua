--#include _rank
--#include _sole
-- Board placement: the ranking rules, applied to the boards the caller
-- names. Which boards a run counts on is decided in Python
-- (``domain.boards``); a script gets each board's keys and order
-- (``store.boards.placements``): ARGV[a] says how many boards, then one
-- ``<order>:<key count>:<closing value>:<name>`` each, and the boards' keys
-- follow one another in KEYS from KEYS[k] (``boards_from``). A board that
-- closes (a season's) has a closing value, its last key being the sorted set
-- of closed values: once its value is there, the board is ``frozen`` and no
-- script changes it. Its name is what an event about it names it by.
--
-- A ``sum`` board adds up the player's places on other boards (``sum_rank``).
-- A ``best`` board holds each player's best verified run (higher rank key:
-- higher score, then earlier submission); a ``first`` board their
-- earliest-submitted verified run, whatever its score. Their keys: the
-- places, then the hash naming each place's run. A
-- ``latest`` board (the ladder) ranks players with at least LADDER_GAMES
-- verified runs on it by the sum of the latest LADDER_GAMES (by submission
-- time, then run id); its keys: the places, the player's window, which holds
-- those runs as ``<run id>:<score>`` by submission ms, and the hash counting
-- them all. A void run is not verified, so it counts on no board.
local function run_fields(run_key)
  local r = redis.call('HMGET', run_key, 'status', 'player', 'score', 'submitted_ms')
  return {id = string.match(run_key, '[^:]+$'), status = r[1], player = r[2], score = tonumber(r[3]),
          ms = tonumber(r[4])}
end

-- The boards named from KEYS[key] and ARGV[arg] on, then the first KEYS and ARGV index after them.
local function boards_from(key, arg)
  local boards = {}
  for i = 1, tonumber(ARGV[arg]) do
    local order, count, closer, name = string.match(ARGV[arg + i], '^(%a+):(%d+):([^:]*):(.*)$')
    local board_keys = {}
    for j = 1, tonumber(count) do board_keys[j] = KEYS[key + j - 1] end
    local frozen = false
    if closer ~= '' then
      frozen = redis.call('ZSCORE', table.remove(board_keys), closer) ~= false
    end
    boards[i] = {order = order, keys = board_keys, frozen = frozen, name = name}
    key = key + tonumber(count)
  end
  return boards, key, arg + #boards + 1
end

local function outranks(packed, held)
  return held == nil or packed > held
end

local function earlier(packed, held)
  return held == nil or rank_submitted_ms(packed) < rank_submitted_ms(held)
end

local WINS = {best = outranks, first = earlier}  -- whether a run takes a place from the one held

-- The board's one place into its sorted set and run-id hash, for a second player's place: its field says so.
local function spread(k, name, sole)
  redis.call('ZADD', k[1], string.format('%.0f', sole.rank), sole.player)
  if sole.run_id ~= '' then redis.call('HSET', k[2], sole.player, sole.run_id) end
  redis.call('HSET', k[3], name, SPREAD)
end

-- Whether the player's place on a board in the state ``sole`` (``sole_of``) is its one place, or would be.
local function alone(sole, player)
  return sole == false or (sole and sole.player == player)
end

-- The player's place on a best or first board (keys ``k``, ``sole_of`` it ``sole``): ``packed`` held by
-- ``run_id``, or no place (nil).
local function put_known(k, name, sole, player, packed, run_id)
  if alone(sole, player) then
    if packed then
      keep_sole(k, name, player, packed, run_id)
    elseif sole then
      redis.call('HDEL', k[3], name)
    end
    return
  end
  if sole then
    if not packed then return end  -- the one place is another player's
    spread(k, name, sole)
  end
  if packed then
    redis.call('ZADD', k[1], string.format('%.0f', packed), player)
    redis.call('HSET', k[2], player, run_id)
  else
    redis.call('ZREM', k[1], player)
    redis.call('HDEL', k[2], player)
    gather(k, name)
  end
end

local function put(k, name, player, packed, run_id)
  put_known(k, name, sole_of(k, name), player, packed, run_id)
end

-- A newly verified run takes the player's place if ``wins`` it against the one held: the place held
-- before it took it (false for none), or nil when it did not take it. ``sole``: the board's ``sole_of``.
local function offer(k, name, sole, player, packed, run_id, wins)
  local held  -- false, not nil, when the player has no place
  if alone(sole, player) then
    held = sole and string.format('%.0f', sole.rank)
  elseif sole then
    held = false  -- the board's one place is another player's
  else
    held = redis.call('ZSCORE', k[1], player)
  end
  if wins(packed, held and tonumber(held) or nil) then
    put_known(k, name, sole, player, packed, run_id)
    return held
  end
  return nil
end

-- The player's ladder place from their window: ranked with LADDER_GAMES games, else none.
local function rank_ladder(ladder, window, player)
  local games = redis.call('ZRANGE', window, 0, -1, 'WITHSCORES')
  if #games < 2 * LADDER_GAMES then
    redis.call('ZREM', ladder, player)
    return
  end
  local total = 0
  for i = 1, #games, 2 do total = total + tonumber(string.match(games[i], ':(.*)$')) end
  redis.call('ZADD', ladder, string.format('%.0f', pack_ladder(total, tonumber(games[#games]))), player)
end

-- A newly verified run on a latest board: counted, in the window if among the latest, the place recomputed.
local function ladder_add(ladder, window, games, r)
  redis.call('HINCRBY', games, r.player, 1)
  redis.call('ZADD', window, string.format('%.0f', r.ms), r.id .. ':' .. r.score)
  redis.call('ZREMRANGEBYRANK', window, 0, -(LADDER_GAMES + 1))
  rank_ladder(ladder, window, r.player)
end

-- The player's place on a latest board from all their verified runs on it, ``{ms, run id, score}`` each.
local function ladder_set(ladder, window, games, player, played)
  table.sort(played, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  redis.call('DEL', window)
  for i = math.max(1, #played - LADDER_GAMES + 1), #played do
    redis.call('ZADD', window, string.format('%.0f', played[i][1]), played[i][2] .. ':' .. played[i][3])
  end
  if #played > 0 then
    redis.call('HSET', games, player, #played)
  else
    redis.call('HDEL', games, player)
  end
  rank_ladder(ladder, window, player)
end

-- The player's place on a ``sum`` board (a tournament's): the sum of their places on the boards it adds
-- up (one per deal, each a best board: KEYS k[3], k[5]… their places, k[4], k[6]… their runs), ranked by
-- that sum, then by the latest of those places' submissions (``pack_ladder``), its run naming the place;
-- no place without one on any of them. Those boards come before it in a run's boards, so they are placed
-- (or recomputed) first.
local function sum_rank(k, player)
  local total, latest, run_id = 0, -1, nil
  for i = 3, #k, 2 do
    local packed = redis.call('ZSCORE', k[i], player)
    if packed then
      packed = tonumber(packed)
      total = total + rank_score(packed)
      if rank_submitted_ms(packed) > latest then
        latest = rank_submitted_ms(packed)
        run_id = redis.call('HGET', k[i + 1], player)
      end
    end
  end
  if run_id then
    redis.call('ZADD', k[1], string.format('%.0f', pack_ladder(total, latest)), player)
    redis.call('HSET', k[2], player, run_id)
  else
    redis.call('ZREM', k[1], player)
    redis.call('HDEL', k[2], player)
  end
end

-- The player in a board's first place and their rank key, or nil for an empty board (``sole``: its ``sole_of``).
local function leader(k, sole)
  if sole ~= nil then
    return sole and {player = sole.player, rank = string.format('%.0f', sole.rank)} or nil
  end
  local top = redis.call('ZREVRANGE', k[1], 0, 0, 'WITHSCORES')
  if #top == 0 then return nil end
  return {player = top[1], rank = top[2]}
end

-- A newly verified run (``run_fields``), offered to each of ``boards`` (``boards_from``) not frozen: the
-- best boards where it took its player's place and others have places, by index, each with the place
-- held before (false for none). Given ``taken`` (a list), each board whose first place the run's player
-- took from another player is added to it: ``{board = its name, previous = that player, previous_rank,
-- rank}``.
local function place_verified(r, boards, taken)
  local packed, risen = pack_rank(r.score, r.ms), {}
  for i, board in ipairs(boards) do
    local k = board.keys
    local sole = nil
    if board.order ~= 'latest' and board.order ~= 'sum' and not board.frozen then sole = sole_of(k, board.name) end
    local before = taken and not board.frozen and leader(k, sole)
    if board.order == 'latest' and not board.frozen then
      ladder_add(k[1], k[2], k[3], r)
    elseif board.order == 'sum' then
      sum_rank(k, r.player)
    elseif not board.frozen then
      local held = offer(k, board.name, sole, r.player, packed, r.id, WINS[board.order])
      if board.order == 'best' and held ~= nil and not alone(sole, r.player) then risen[i] = held end
    end
    if before and before.player ~= r.player then
      local after = leader(k, nil)  -- a second player's place: the board is in its sorted set
      if after and after.player == r.player then
        taken[#taken + 1] = {board = board.name, previous = before.player, previous_rank = before.rank,
                             rank = after.rank}
      end
    end
  end
  return risen
end
