-- Reads where tokens of one product stand, in one round trip: one poll's token, or the polls that arrived together.
-- KEYS[1] entry:{p}   KEYS[2] waiting:{p}   KEYS[3] members:{p}   KEYS[4] queue:{p}
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME   ARGV[2..] the tokens
-- Returns {admitPerSecond, status, position, expiresAt, status, position, expiresAt, ...}: three fields per token,
-- in the order of ARGV.
--
-- A token members:{p} has never seen is PENDING, however long the log's lag: only an applied enter event (or
-- a leave) records it there, so an accepted token is never called EXPIRED before the line had it.
-- One script reads every token at one instant, so no answer of a batch is older than the batch's call.
local rate = tonumber(redis.call('HGET', KEYS[4], 'admitPerSecond') or '0')

local now = tonumber(ARGV[1])
local function clock()
  if now == 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return now
end

-- The one place that decides a token's status: status, position, expiresAt.
local function status_of(token)
  local expiresAt = redis.call('ZSCORE', KEYS[1], token)
  if expiresAt then
    if tonumber(expiresAt) > clock() then
      return 'AVAILABLE', 0, expiresAt
    end
    return 'EXPIRED', 0, 0
  end

  local rank = redis.call('ZRANK', KEYS[2], token)
  if rank then
    return 'WAITING', rank + 1, 0
  end
  if redis.call('HEXISTS', KEYS[3], token) == 1 then
    return 'EXPIRED', 0, 0
  end
  return 'PENDING', 0, 0
end

local reply = {rate}
for i = 2, #ARGV do
  local status, position, expiresAt = status_of(ARGV[i])
  reply[#reply + 1] = status
  reply[#reply + 1] = position
  reply[#reply + 1] = expiresAt
end
return reply
