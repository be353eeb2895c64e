--#include _rank
--#include _around
-- Shared by the board reads: appends (player, score, submission time in ms,
-- run id) per place to ``reply``. The run ids come from the board's hash,
-- one HMGET, or for a seed board (``deal``; it has no such hash) from each
-- player's run list: their run submitted at the place's time on that
-- variant and seed, open, verified, with that score. A batch's runs share
-- their submission time, so there may be several to look at.
local function seed_run_id(player, score, ms, deal)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', deal.player_runs .. player, ms, ms)) do
    local r = redis.call('HMGET', deal.run .. id, 'variant', 'seed', 'status', 'score', 'origin')
    if r[1] == deal.variant and r[2] == deal.seed and r[3] == 'verified' and tonumber(r[4]) == score
        and not r[5] then
      return id
    end
  end
  return ''
end

local function with_runs(reply, places, runs_key, deal)
  if #places == 0 then
    return reply
  end
  local players = players_of(places)
  local runs = {}
  if runs_key then runs = redis.call('HMGET', runs_key, unpack(players)) end
  for i = 1, #players do
    local packed = tonumber(places[2 * i])
    local score, ms = rank_score(packed), string.format('%.0f', rank_submitted_ms(packed))
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = score
    reply[#reply + 1] = ms
    if runs_key then
      reply[#reply + 1] = runs[i] or ''
    else
      reply[#reply + 1] = seed_run_id(players[i], score, ms, deal)
    end
  end
  return reply
end

-- The seed board's deal from ARGV[first..]: variant, seed, the player-runs and run key prefixes.
local function deal_from(first)
  return {variant = ARGV[first], seed = ARGV[first + 1], player_runs = ARGV[first + 2], run = ARGV[first + 3]}
end
