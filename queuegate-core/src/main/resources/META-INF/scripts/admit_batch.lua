#!lua
-- One admission step for one product: drop expired entries, then move the head of the line into entry.
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] queue:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] gone:{p}
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME
-- ARGV[2] the most users this call may expire, and the most it may admit (bounds the work of one call)
-- Returns {admitted, expired, active, waiting}, or {-1} when the queue has no settings.
--
-- Atomic, so any number of workers may call it at once: active never exceeds maxActive. The rate is a token
-- bucket kept in stats:{p} and refilled from elapsed time, so more workers or more ticks never admit faster.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local settings = redis.call('HMGET', KEYS[3], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open')
if not settings[1] then
  return {-1}
end
local maxActive = tonumber(settings[1])
local rate = tonumber(settings[2])
local ttlMs = tonumber(settings[3]) * 1000
local open = settings[4] == 'true'

local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local bound = tonumber(ARGV[2])

-- Expired entries are the lowest scores, so they are ranks 0..n-1. Their users go to gone, so that a late or
-- repeated enter event never puts them back in line.
local expired = math.min(redis.call('ZCOUNT', KEYS[2], '-inf', now), bound)
if expired > 0 then
  local users = redis.call('ZRANGE', KEYS[2], 0, expired - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, expired - 1)
  -- in slices: unpack() has a limit of a few thousand values
  for first = 1, #users, 1000 do
    redis.call('SADD', KEYS[6], unpack(users, first, math.min(first + 999, #users)))
  end
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', 100000, '*', 'type', 'EXPIRED', 'at', now,
    'users', table.concat(users, ','))
  redis.call('HINCRBY', KEYS[4], 'expiredTotal', expired)
end

local active = redis.call('ZCARD', KEYS[2])
local waiting = redis.call('ZCARD', KEYS[1])

-- Refill the bucket; it holds at most one second of admissions.
local bucket = redis.call('HMGET', KEYS[4], 'bucket', 'bucketAt')
local tokens = tonumber(bucket[1]) or rate
local last = tonumber(bucket[2]) or now
if now > last then
  tokens = math.min(rate, tokens + (now - last) * rate / 1000)
  last = now
end

local admitted = 0
if open and waiting > 0 then
  admitted = math.max(0, math.min(maxActive - active, math.floor(tokens), bound, waiting))
end
if admitted > 0 then
  -- ZRANGE and ZREMRANGEBYRANK rather than ZPOPMIN: the sequence scores are not needed, and formatting each
  -- one for Lua was a tenth of a large step.
  local head = redis.call('ZRANGE', KEYS[1], 0, admitted - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, admitted - 1)
  local expiresAt = now + ttlMs
  local args = {}
  for first = 1, #head, 1000 do
    local n = 0
    for i = first, math.min(first + 999, #head) do
      args[n + 1] = expiresAt
      args[n + 2] = head[i]
      n = n + 2
    end
    redis.call('ZADD', KEYS[2], unpack(args, 1, n))
  end
  tokens = tokens - admitted
  redis.call('HINCRBY', KEYS[4], 'admittedTotal', admitted)
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', 100000, '*', 'type', 'ADMITTED', 'at', now,
    'expiresAt', expiresAt, 'users', table.concat(head, ','))
end
redis.call('HSET', KEYS[4], 'bucket', tostring(tokens), 'bucketAt', last)
return {admitted, expired, active + admitted, waiting - admitted}
