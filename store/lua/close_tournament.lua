-- KEYS: the closed tournaments, the tournament's games in play.
-- ARGV: the tournament's id.
-- Closes a tournament that has ended: from now on no game of it takes a move (play_moves.lua
-- forfeits it instead, R19). Returns the ids of its games still in play, for the caller to forfeit
-- before anything of its sealed decks is shown.
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('SMEMBERS', KEYS[2])
