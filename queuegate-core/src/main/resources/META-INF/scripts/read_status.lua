-- Reads where a user stands in a product's line, in one round trip.
-- KEYS[1] entry:{p}   KEYS[2] waiting:{p}   KEYS[3] gone:{p}   KEYS[4] queue:{p}
-- ARGV[1] user id (the token's, verified by the caller)   ARGV[2] now in epoch ms, or 0 to read Redis TIME
-- Returns {status, position, expiresAt, admitPerSecond}.
--
-- A user the line has never placed is PENDING, however long the log's lag: only an applied enter event puts a
-- user in waiting, and only a leave, an expiry or a booking puts one in gone, so an accepted token is never
-- called EXPIRED before the line had it.

-- Where one user stands: {status, position, expiresAt}. Every lookup of a user is here, so a read of several
-- users runs the same logic.
local function place(user, now)
  local expiresAt = redis.call('ZSCORE', KEYS[1], user)
  if expiresAt then
    if tonumber(expiresAt) > now then
      return {'AVAILABLE', 0, expiresAt}
    end
    return {'EXPIRED', 0, 0}
  end
  local rank = redis.call('ZRANK', KEYS[2], user)
  if rank then
    return {'WAITING', rank + 1, 0}
  end
  if redis.call('SISMEMBER', KEYS[3], user) == 1 then
    return {'EXPIRED', 0, 0}
  end
  return {'PENDING', 0, 0}
end

local now = tonumber(ARGV[2])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local rate = tonumber(redis.call('HGET', KEYS[4], 'admitPerSecond') or '0')
local state = place(ARGV[1], now)
return {state[1], state[2], state[3], rate}
