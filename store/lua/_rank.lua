-- The board rank key, in Lua: the same packing as ``store/packing.py``
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
