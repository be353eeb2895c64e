-- A reward as kept in an inbox (JSON: ``store.rewards.inbox``) as the webhooks show it: the fields of
-- ``schemas.rewards.RewardSchema``, its claim not yet made.
local function shown(kept)
  local reward = cjson.decode(kept)
  return {id = reward.id, source = reward.source, rank = reward.rank, payload = reward.payload,
          granted_at = reward.granted_at, claimed_at = cjson.null}
end
