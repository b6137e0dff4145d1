#!lua
-- Takes a user out of the line or frees their entry slot (the user left, or the operator revoked the place).
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] gone:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] revoked:{p}, with a REVOKED audit type only: the user's admission is recorded there until it expires, so
-- that a check of the signed admission without Redis's entry (the edge check) refuses it too
-- ARGV[1] user id   ARGV[2] now in epoch ms, or 0 to read Redis TIME   ARGV[3] the audit's type: LEFT or REVOKED
-- Returns 1 when the user held a place, 0 otherwise.
--
-- The user is recorded in gone:{p} even without a place: a user who leaves before the enter event was applied
-- stays out when the late event arrives.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local user = ARGV[1]
local admittedUntil = KEYS[6] and redis.call('ZSCORE', KEYS[2], user)
local removed = redis.call('ZREM', KEYS[1], user) + redis.call('ZREM', KEYS[2], user)
redis.call('SADD', KEYS[3], user)
if removed > 0 then
  redis.call('HINCRBY', KEYS[4], ARGV[3] == 'REVOKED' and 'revokedTotal' or 'leftTotal', 1)
  local now = now_ms(tonumber(ARGV[2]))
  redis.call('XADD', KEYS[5], '*', 'type', ARGV[3] or 'LEFT', 'at', now, 'users', user)
  if admittedUntil then
    -- bounded by the entries: past expiries go at each revoke
    redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
    redis.call('ZADD', KEYS[6], admittedUntil, user)
  end
end
return removed
