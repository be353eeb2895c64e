--#include _log
-- KEYS: the closed sealed days, the day's sealed games in play, the public log's two keys (``_log``).
-- ARGV: the date, then the day's seed's ``reveal`` leaf around its index (two items, ``_log``).
-- Closes the day's sealed daily: from now on no game of it takes a move
-- (play_moves.lua forfeits it instead, R18), and the log, the first time,
-- says its seed. Returns the ids of its games still in play, for the caller
-- to forfeit before anything of the day's deal is shown.
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  append_leaf(KEYS[3], KEYS[4], ARGV[2], ARGV[3])
end
return redis.call('SMEMBERS', KEYS[2])
