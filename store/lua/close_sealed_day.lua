-- KEYS: the closed sealed days, the day's sealed games in play.
-- ARGV: the date.
-- Closes the day's sealed daily: from now on no game of it takes a move
-- (play_moves.lua forfeits it instead, R18). Returns the ids of its games
-- still in play, for the caller to forfeit before anything of the day's
-- deal is shown.
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('SMEMBERS', KEYS[2])
