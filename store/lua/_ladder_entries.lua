--#include _rank
--#include _around
-- Shared by the ladder reads: appends (player, the sum of their last games'
-- scores, the latest game's submission ms and run id, how many games they
-- have) per place to ``reply``. The latest game is the top of the player's
-- ladder window, whose key is ``window_prefix`` and the player's name.
local function with_games(reply, places, games_key, window_prefix)
  if #places == 0 then
    return reply
  end
  local players = players_of(places)
  local games = redis.call('HMGET', games_key, unpack(players))
  for i = 1, #players do
    local latest = redis.call('ZREVRANGE', window_prefix .. players[i], 0, 0, 'WITHSCORES')
    reply[#reply + 1] = players[i]
    reply[#reply + 1] = ladder_total(tonumber(places[2 * i]))
    reply[#reply + 1] = latest[2] or ''
    reply[#reply + 1] = string.match(latest[1] or '', '^[^:]*')
    reply[#reply + 1] = games[i] or '0'
  end
  return reply
end
