-- Reads where a token stands, in one round trip.
-- KEYS[1] entry:{p}   KEYS[2] waiting:{p}   KEYS[3] members:{p}   KEYS[4] queue:{p}
-- ARGV[1] token   ARGV[2] now in epoch ms, or 0 to read Redis TIME
-- Returns {status, position, expiresAt, admitPerSecond}.
--
-- A token members:{p} has never seen is PENDING, however long the log's lag: only an applied enter event (or
-- a leave) records it there, so an accepted token is never called EXPIRED before the line had it.
local token = ARGV[1]
local rate = tonumber(redis.call('HGET', KEYS[4], 'admitPerSecond') or '0')

local expiresAt = redis.call('ZSCORE', KEYS[1], token)
if expiresAt then
  local now = tonumber(ARGV[2])
  if now == 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  if tonumber(expiresAt) > now then
    return {'AVAILABLE', 0, expiresAt, rate}
  end
  return {'EXPIRED', 0, 0, rate}
end

local rank = redis.call('ZRANK', KEYS[2], token)
if rank then
  return {'WAITING', rank + 1, 0, rate}
end
if redis.call('HEXISTS', KEYS[3], token) == 1 then
  return {'EXPIRED', 0, 0, rate}
end
return {'PENDING', 0, 0, rate}
