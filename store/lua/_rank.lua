-- The board rank key, in Lua: the same packing as ``store/base/packing.py``
-- (a test holds the two equal). Exact: doubles hold integers below 2^53.
local SCORE_OFFSET = 256
local TIME_SPAN = 8796093022208  -- 2^43
local LATEST_MS = TIME_SPAN - 1

local function pack_rank(score, submitted_ms)
  return (score + SCORE_OFFSET) * TIME_SPAN + (LATEST_MS - submitted_ms)
end

local function rank_score(packed)
  return math.floor(packed / TIME_SPAN) - SCORE_OFFSET
end

local function rank_submitted_ms(packed)
  return LATEST_MS - (packed % TIME_SPAN)
end

-- The ladder key: the sum of a player's last LADDER_GAMES scores, then the
-- second their latest game ended, inverted (``packing.pack_ladder``).
local LADDER_GAMES = 20
local LADDER_OFFSET = 8192
local LADDER_SPAN = 34359738368  -- 2^35

local function pack_ladder(total, latest_ms)
  return (total + LADDER_OFFSET) * LADDER_SPAN + (LADDER_SPAN - 1 - math.floor(latest_ms / 1000))
end

local function ladder_total(packed)
  return math.floor(packed / LADDER_SPAN) - LADDER_OFFSET
end

-- A best-ranked board's place as its packing (``store.base.packing.Packing``) holds it: the score and the
-- time in ms. 'rank': one game's (``pack_rank``); 'total': a sum's (``pack_ladder``, to the second).
local function unpack_place(packed, packing)
  if packing == 'total' then
    return ladder_total(packed), (LADDER_SPAN - 1 - packed % LADDER_SPAN) * 1000
  end
  return rank_score(packed), rank_submitted_ms(packed)
end

-- The span of a packing's rank keys (the part above it is the score: ``_around``'s ``places_above``).
local function packing_span(packing)
  return packing == 'total' and LADDER_SPAN or TIME_SPAN
end
