--#include _placement
-- KEYS: a best or first board's places, its run-id hash (then, a kind kept as its sole place, the hash of
-- sole places: ``_placement``).
-- ARGV: the board's order ('best', 'first'), its name, then (player, packed rank key, run id) per place the
-- archive holds of it.
-- Brings an archived board back into Redis (``store.boards.cooling``): each
-- place is offered as a verdict's run would be, so a place Redis holds
-- already (a verdict placed since the board left) is kept where it wins.
-- Running it twice changes nothing more.
local wins, name = WINS[ARGV[1]], ARGV[2]
for i = 3, #ARGV, 3 do
  offer(KEYS, name, sole_of(KEYS, name), ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], wins)
end
return 'ok'
