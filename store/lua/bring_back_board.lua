--#include _placement
-- KEYS: a best or first board's places, its run-id hash.
-- ARGV: the board's order ('best', 'first'), then (player, packed rank key,
-- run id) per place the archive holds of it.
-- Brings an archived board back into Redis (``store.boards.cooling``): each
-- place is offered as a verdict's run would be, so a place Redis holds
-- already (a verdict placed since the board left) is kept where it wins.
-- Running it twice changes nothing more.
local wins = WINS[ARGV[1]]
for i = 2, #ARGV, 3 do
  offer(KEYS[1], KEYS[2], ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], wins)
end
return 'ok'
