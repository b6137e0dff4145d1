-- Reads where users of one product stand, in one round trip: one poll's user, or the polls that arrived together.
-- KEYS[1] entry:{p}   KEYS[2] waiting:{p}   KEYS[3] gone:{p}   KEYS[4] queue:{p}
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME   ARGV[2..] user ids (the tokens', verified by the caller)
-- Returns {admitPerSecond, status, position, expiresAt, status, position, expiresAt, ...}: three fields per user,
-- in the order of ARGV.
--
-- A user the line has never placed is PENDING, however long the log's lag: only an applied enter event puts a
-- user in waiting, and only a leave, an expiry or a booking puts one in gone, so an accepted token is never
-- called EXPIRED before the line had it.
-- One script reads every user at one instant, so no answer of a batch is older than the batch's call.
local rate = tonumber(redis.call('HGET', KEYS[4], 'admitPerSecond') or '0')

local now = tonumber(ARGV[1])
local function clock()
  if now == 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return now
end

-- The one place that decides a user's status: status, position, expiresAt.
local function place(user)
  local expiresAt = redis.call('ZSCORE', KEYS[1], user)
  if expiresAt then
    if tonumber(expiresAt) > clock() then
      return 'AVAILABLE', 0, expiresAt
    end
    return 'EXPIRED', 0, 0
  end
  local rank = redis.call('ZRANK', KEYS[2], user)
  if rank then
    return 'WAITING', rank + 1, 0
  end
  if redis.call('SISMEMBER', KEYS[3], user) == 1 then
    return 'EXPIRED', 0, 0
  end
  return 'PENDING', 0, 0
end

local reply = {rate}
for i = 2, #ARGV do
  local status, position, expiresAt = place(ARGV[i])
  reply[#reply + 1] = status
  reply[#reply + 1] = position
  reply[#reply + 1] = expiresAt
end
return reply
