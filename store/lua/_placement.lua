--#include _rank
-- Board placement, the one Lua home of which boards a run counts on and of
-- the ranking rules.
--
-- ``boards_of`` names the boards a verified run counts on, from its fields
-- (``run_fields``): an open run (no ``origin``) on its variant's board, its
-- day's daily board (a run on a daily seed) and its deal's seed board; a
-- dealt run on its variant's dealt board and ladder, and on its date's
-- sealed board if it is the sealed daily. Two runs count on the same board
-- when the names match. The scripts get the keys of every kind of board a
-- run could count on, always in one order (``scripts.board_keys``): best
-- (variant or dealt board: places, runs), first (daily or sealed board:
-- places, runs), seed board, ladder, ladder window, ladder games; those the
-- run does not count on are left alone.
--
-- A best board holds each player's best verified run (higher rank key:
-- higher score, then earlier submission); a first board their
-- earliest-submitted verified run, whatever its score; a seed board is a
-- best board without a run-id hash. The ladder ranks players with at least
-- LADDER_GAMES verified dealt games of the variant by the sum of the latest
-- LADDER_GAMES (by submission time, then run id); their window holds those
-- games as ``<run id>:<score>`` by submission ms, the games hash counts
-- them all. A void run is not verified, so it counts on no board.
local function run_fields(run_key)
  local r = redis.call('HMGET', run_key, 'id', 'status', 'player', 'variant', 'seed', 'score', 'submitted_ms',
    'origin', 'daily', 'challenge', 'date')
  return {id = string.match(run_key, '[^:]+$'), status = r[2], player = r[3], variant = r[4], seed = r[5], score = tonumber(r[6]),
          ms = tonumber(r[7]), origin = r[8] or 'open', daily = r[9] or '', challenge = r[10] or '', date = r[11] or ''}
end

local function boards_of(r)
  if r.origin == 'dealt' then
    local day = false
    if r.challenge == 'daily' and r.date ~= '' then day = 'sealed:' .. r.date end
    return {best = 'dealt:' .. r.variant, first = day, seed = false, ladder = r.variant}
  end
  local day = false
  if r.daily ~= '' then day = 'daily:' .. r.daily end
  return {best = 'open:' .. r.variant, first = day, seed = r.variant .. ':' .. r.seed, ladder = false}
end

local function outranks(packed, held)
  return held == nil or packed > held
end

local function earlier(packed, held)
  return held == nil or rank_submitted_ms(packed) < rank_submitted_ms(held)
end

-- The player's place on a board: ``packed`` held by ``run_id``, or no place
-- (nil). ``board_runs`` is nil for a seed board.
local function put(board, board_runs, player, packed, run_id)
  if packed then
    redis.call('ZADD', board, string.format('%.0f', packed), player)
    if board_runs then redis.call('HSET', board_runs, player, run_id) end
  else
    redis.call('ZREM', board, player)
    if board_runs then redis.call('HDEL', board_runs, player) end
  end
end

-- A newly verified run takes the player's place if ``wins`` it against the one held.
local function offer(board, board_runs, player, packed, run_id, wins)
  local held = redis.call('ZSCORE', board, player)  -- false, not nil, when the player has no place
  if wins(packed, held and tonumber(held) or nil) then
    put(board, board_runs, player, packed, run_id)
  end
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

-- A newly verified dealt game: counted, in the window if among the latest, the ladder place recomputed.
local function ladder_add(ladder, window, games, r)
  redis.call('HINCRBY', games, r.player, 1)
  redis.call('ZADD', window, string.format('%.0f', r.ms), r.id .. ':' .. r.score)
  redis.call('ZREMRANGEBYRANK', window, 0, -(LADDER_GAMES + 1))
  rank_ladder(ladder, window, r.player)
end

-- The player's ladder from all their verified dealt games of the variant, ``{ms, run id, score}`` each.
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

-- A newly verified run, offered to every board it counts on; KEYS[b] is the first board key.
local function place_verified(r, b)
  local boards = boards_of(r)
  local packed = pack_rank(r.score, r.ms)
  offer(KEYS[b], KEYS[b + 1], r.player, packed, r.id, outranks)
  if boards.first then offer(KEYS[b + 2], KEYS[b + 3], r.player, packed, r.id, earlier) end
  if boards.seed then offer(KEYS[b + 4], nil, r.player, packed, r.id, outranks) end
  if boards.ladder then ladder_add(KEYS[b + 5], KEYS[b + 6], KEYS[b + 7], r) end
end
