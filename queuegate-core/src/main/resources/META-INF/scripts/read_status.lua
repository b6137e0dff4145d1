-- Reads where users of one product stand, in one round trip: one poll's user, or the polls that arrived together.
-- KEYS[1] entry:{p}   KEYS[2] waiting:{p}   KEYS[3] gone:{p}   KEYS[4] queue:{p}   KEYS[5] stats:{p}
-- KEYS[6] stock:{p}   KEYS[7] seen:{p}
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME   ARGV[2..] user ids (the tokens', verified by the caller)
-- Returns {pace, maxPollsPerSecond, waiting, abandonAfterSeconds, opensAt, paceFloor, measured, headStart,
-- admitPerSecond, status, position, expiresAt, sinceLastPollMs, status, ...}: the line's conditions, then four fields
-- per user in the order of ARGV. admitPerSecond is the most the line can move at, a second's worth at once besides.
-- pace is admissions per second as a string (measured, or admitPerSecond before there is history, whichever is
-- lower); paceFloor the least the line can move at by its settings alone, as a string: every place is held at most
-- entryTtlSeconds, so at least maxActive ÷ entryTtlSeconds a second are admitted, and at most admitPerSecond;
-- measured is 1 once the pace is measured, 0 before; headStart how many the next step may admit at once, as a
-- string: the rate bucket's tokens now (admit_batch.lua), within the places free (a full bucket when the line has
-- not moved yet: the first second of a sale admits a second's worth at once); waiting is the length of the line, counted only when polls are budgeted (else 0); opensAt is 0 without
-- one; sinceLastPollMs is how long ago the same waiting user polled, -1 when unknown or not tracked. Before opensAt,
-- and until the opening steps have placed every early entrant, a waiting user's position is 0.
--
-- A user the line has never placed is PENDING, however long the log's lag: only an applied enter event puts a
-- user in waiting, and only a leave, an expiry or a booking puts one in gone, so an accepted token is never
-- called EXPIRED before the line had it. While the product is sold out (stock:{p} set and at most 0), WAITING,
-- PENDING and AVAILABLE read SOLD_OUT: an admitted user must not be told to book what the counter can only refuse.
-- Every place is kept: the line moves again when stock returns, and an admission still within its expiry reads
-- AVAILABLE again (its SOLD_OUT carries that expiry).
-- One script reads every user at one instant, so no answer of a batch is older than the batch's call.
--
-- Without maxPollsPerSecond and abandonAfterSeconds the script only reads. With either, it records in seen:{p}
-- when each waiting user polled (the admission tick releases the places of those gone quiet). No #!lua line: a
-- poll must still be answered when Redis is out of memory and the queue tracks nothing; a failed ZADD then fails
-- the call, having written only other users' poll times.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local s = redis.call('HMGET', KEYS[4], 'admitPerSecond', 'maxPollsPerSecond', 'abandonAfterSeconds', 'opensAt',
  'maxActive', 'entryTtlSeconds')
local rate = tonumber(s[1]) or 0
local maxPolls = tonumber(s[2]) or 0
local abandon = tonumber(s[3]) or 0
local opensAt = tonumber(s[4]) or 0
local pace = rate
local ttl = tonumber(s[6]) or 0
local floor = ttl > 0 and math.min(rate, (tonumber(s[5]) or 0) / ttl) or 0
local stats = redis.call('HMGET', KEYS[5], 'pace', 'earlySeq')
local measured = tonumber(stats[1])
if measured and measured < pace then
  pace = measured
end
local stock = tonumber(redis.call('GET', KEYS[6]))
local soldOut = stock and stock <= 0
local track = maxPolls > 0 or abandon > 0

local now = tonumber(ARGV[1])
local function clock()
  now = now_ms(now)
  return now
end

-- How long ago a waiting user polled before this poll, which is recorded.
local function seen(user)
  if not track then
    return -1
  end
  local last = redis.call('ZSCORE', KEYS[7], user)
  redis.call('ZADD', KEYS[7], clock(), user)
  if last then
    return math.max(0, clock() - tonumber(last))
  end
  return -1
end

-- The one place that decides a user's status: status, position, expiresAt, sinceLastPollMs.
local function place(user)
  local expiresAt = redis.call('ZSCORE', KEYS[1], user)
  if expiresAt then
    if tonumber(expiresAt) <= clock() then
      return 'EXPIRED', 0, 0, -1
    end
    if soldOut then
      return 'SOLD_OUT', 0, expiresAt, -1
    end
    return 'AVAILABLE', 0, expiresAt, -1
  end
  local rank = redis.call('ZRANK', KEYS[2], user)
  if rank then
    local since = seen(user)
    if soldOut then
      return 'SOLD_OUT', 0, 0, since
    end
    if opensAt > 0 and (stats[2] or opensAt > clock()) then
      return 'WAITING', 0, 0, since
    end
    return 'WAITING', rank + 1, 0, since
  end
  if redis.call('SISMEMBER', KEYS[3], user) == 1 then
    return 'EXPIRED', 0, 0, -1
  end
  if soldOut then
    return 'SOLD_OUT', 0, 0, -1
  end
  return 'PENDING', 0, 0, -1
end

-- the bucket refilled to now, as the next admission step will find it, and no more than the places free
local bucket = redis.call('HMGET', KEYS[5], 'bucket', 'bucketAt')
local tokens = tonumber(bucket[1]) or rate
if bucket[2] then
  tokens = math.min(rate, tokens + math.max(0, clock() - tonumber(bucket[2])) * rate / 1000)
end
local free = math.max(0, (tonumber(s[5]) or 0) - redis.call('ZCARD', KEYS[1]))
local headStart = math.floor(math.min(tokens, free))
local reply = {tostring(pace), maxPolls, maxPolls > 0 and redis.call('ZCARD', KEYS[2]) or 0, abandon,
  s[4] or '0', tostring(floor), measured and 1 or 0, headStart, rate}
for i = 2, #ARGV do
  local status, position, expiresAt, since = place(ARGV[i])
  reply[#reply + 1] = status
  reply[#reply + 1] = position
  reply[#reply + 1] = expiresAt
  reply[#reply + 1] = since
end
return reply
