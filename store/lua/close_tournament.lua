--#include _log
-- KEYS: the closed tournaments, the tournament's games in play, the public log's two keys (``_log``).
-- ARGV: the tournament's id, then a ``reveal`` leaf around its index per sealed deck (two items each,
-- ``_log``; none for a tournament of fresh decks).
-- Closes a tournament that has ended: from now on no game of it takes a move (play_moves.lua
-- forfeits it instead, R19), and the log, the first time, says its sealed decks' seeds. Returns the
-- ids of its games still in play, for the caller to forfeit before anything of its sealed decks is shown.
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  for i = 2, #ARGV, 2 do
    append_leaf(KEYS[3], KEYS[4], ARGV[i], ARGV[i + 1])
  end
end
return redis.call('SMEMBERS', KEYS[2])
