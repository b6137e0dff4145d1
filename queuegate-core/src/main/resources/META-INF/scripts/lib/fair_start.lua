-- A fair start's order, put by QueueScripts at the top of every script after the clock, so that the opening
-- (admit_batch.lua) and a restore of the sale (restore_places.lua) place early entrants by the same rule.
-- The score of an early entrant is H - 2^52, where H is the first 13 hex digits (52 bits) of
-- SHA1(seed .. ':' .. userId) read as an integer: negative, so early entrants come before everyone who joined later
-- (positive sequences), in the order H gives (equal H, by user id, as Redis orders equal scores).
-- Reads no key and writes nothing: it has no KEYS and no ARGV of its own.
local function fair_score(seed, user)
  return tonumber(string.sub(redis.sha1hex(seed .. ':' .. user), 1, 13), 16) - 4503599627370496
end
