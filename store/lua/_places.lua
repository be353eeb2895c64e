--#include _placement
-- Recomputing a player's places on the boards one run counts on from all
-- their runs, which the caller passes as KEYS[first..] in submission order
-- after their run list (``scripts._with_player_runs``). ``complete`` checks
-- the count against the player's run list first: a run submitted since the
-- caller read it makes the script answer 'stale' before changing anything,
-- and the caller retries. Each board gets what ``_placement``'s rules give
-- for the player's verified runs on it, those in the archive too: the caller
-- passes them as values (they change only by coming back to Redis, which
-- changes the player's run list).

-- The boards to recompute from KEYS[key] and ARGV[arg] on (``boards_from``), each with the runs
-- on it: an ARGV item a board after their orders, the runs' positions among the player's runs
-- (0 for the first), space-separated; then an item a board, its verified archived runs as
-- ``<submission ms>:<run id>:<score>``, space-separated. Then the first KEYS and ARGV index after them.
local function recomputed_boards(key, arg)
  local boards, next_key, next_arg = boards_from(key, arg)
  for i, board in ipairs(boards) do
    board.runs, board.archived = ARGV[next_arg + i - 1], ARGV[next_arg + #boards + i - 1]
  end
  return boards, next_key, next_arg + 2 * #boards
end

-- The board's runs: the player's verified runs in Redis (KEYS[first..]) and in the archive.
local function verified_on(board, first)
  local runs = {}
  for position in string.gmatch(board.runs, '%d+') do
    local r = run_fields(KEYS[first + tonumber(position)])
    if r.status == 'verified' then runs[#runs + 1] = r end
  end
  for ms, id, score in string.gmatch(board.archived, '(%d+):([^: ]+):(-?%d+)') do
    runs[#runs + 1] = {id = id, status = 'verified', score = tonumber(score), ms = tonumber(ms)}
  end
  return runs
end

local function complete(player_runs, first)
  return redis.call('ZCARD', player_runs) == #KEYS - first + 1
end

-- The player's place on one board from their runs on it (``verified_on``).
local function place_on(board, player, first)
  if board.order == 'sum' then
    sum_rank(board.keys, player)  -- from the boards it adds up, recomputed before it
    return
  end
  local held, held_id, played = nil, nil, {}
  for _, r in ipairs(verified_on(board, first)) do
    if board.order == 'latest' then
      played[#played + 1] = {r.ms, r.id, r.score}
    else
      local packed = pack_rank(r.score, r.ms)
      if WINS[board.order](packed, held) then held, held_id = packed, r.id end
    end
  end
  local k = board.keys
  if board.order == 'latest' then
    ladder_set(k[1], k[2], k[3], player, played)
  else
    put(k, board.name, player, held, held_id)
  end
end

-- ``run_key``: the run whose ``boards`` to recompute; KEYS[first..]: the player's runs. A frozen
-- board (a closed season's) keeps the places it had at its close.
local function place(run_key, boards, first)
  local player = redis.call('HGET', run_key, 'player')
  for _, board in ipairs(boards) do
    if not board.frozen then place_on(board, player, first) end
  end
end
