#!lua
-- One admission step for one product: drop expired entries and abandoned places, shuffle the early entrants when
-- the sale opens, then move the head of the line into entry, and measure the pace at which it moves.
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] queue:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] gone:{p}   KEYS[7] stock:{p}   KEYS[8] seen:{p}   KEYS[9] held:{p}
-- KEYS[10] admission-lease:{p}, optional: the lease of the worker that runs this queue's steps
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME
-- ARGV[2] the most users this call may expire, the most it may take out as abandoned, and the most it may admit
--         (bounds the work of one call), and the most early entrants it re-places at the opening
-- ARGV[3] a fresh random seed, used only by the step that opens the sale (and then published)
-- ARGV[4] with KEYS[10]: the calling worker's id   ARGV[5] with KEYS[10]: the lease time in ms
-- ARGV[6] the most unrelayed changes audit:{p} may hold before the step holds (below); without it, no bound
-- Returns {admitted, expired, active, waiting, abandoned, drained, held}, {-1} when the queue has no settings, or
-- {-2} when KEYS[10] is given and another worker holds it (nothing was changed). A deleted queue (queue:{p}
-- deletedAt) admits nobody: each step tells up to ARGV[2] of its waiting users EXPIRED, its entries run out, and once
-- nobody is left and the audit is relayed, DELETE_GRACE_MS after the deletion, the step answers drained 1: the caller
-- removes the queue's keys (QueueStore.remove). held is 1 when the step held for the audit backlog (nothing changed).
-- Users the operator holds (held:{p}) keep their place and are passed over: the step admits the first users of the
-- line who are not held.
--
-- Atomic, so any number of workers may call it at once: active never exceeds maxActive. The rate is a token
-- bucket kept in stats:{p} and refilled from elapsed time, so more workers or more ticks never admit faster.
-- Nobody is admitted while the product is sold out (stock:{p} set and at most 0); a product without a stock key
-- is never sold out here (the booking gate decides what it sells). Nobody is admitted before opensAt, nor on a Redis
-- process that has not been restored since it took over the line (below).
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local settings = redis.call('HMGET', KEYS[3], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open',
  'abandonAfterSeconds', 'opensAt', 'deletedAt')
if not settings[1] then
  return {-1}
end
-- A Redis process other than the one that last appended to this line (stats:{p} run: restarted or promoted since,
-- its last writes perhaps lost) admits nobody until the restore has stamped the line (finish_restore.lua): the
-- entries it lost come back from the log then, and admissions made on top of the older state could hold more than
-- maxActive. One INFO per step, never per user.
local run = redis.call('HGET', KEYS[4], 'run')
if run and run ~= run_id() then
  return {0, 0, redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[1]), 0}
end
-- The lease is checked, renewed or taken (when free: never held, released, or lapsed) in the step itself, so a
-- worker that lost it to another, however late its call arrives, admits nothing: one holder per queue at a time.
if KEYS[10] then
  local holder = redis.call('GET', KEYS[10])
  if holder == ARGV[4] then
    redis.call('PEXPIRE', KEYS[10], ARGV[5])
  elseif holder then
    return {-2}
  else
    redis.call('SET', KEYS[10], ARGV[4], 'PX', ARGV[5])
  end
end
-- audit:{p} is the outbox of every change of the line: the webhooks and the restore after a Redis loss read it from
-- Kafka, so nothing trims it but the relay, and only what Kafka acknowledged. While the relay cannot publish (Kafka or
-- the relay away) it grows; once it holds ARGV[6] changes the step holds instead of writing more: nothing is
-- admitted, expired or taken out, the line waits, and the step admits again once the relay has caught up. Checked in
-- the step, so any number of workers stop at the bound (each step adds at most four changes). XLEN is O(1).
local auditLimit = tonumber(ARGV[6])
if auditLimit and redis.call('XLEN', KEYS[5]) >= auditLimit then
  return {0, 0, redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[1]), 0, 0, 1}
end
local maxActive = tonumber(settings[1])
local rate = tonumber(settings[2])
local ttlMs = tonumber(settings[3]) * 1000
local open = settings[4] == 'true'
local abandonMs = (tonumber(settings[5]) or 0) * 1000
local opensAt = tonumber(settings[6]) or 0

local now = now_ms(tonumber(ARGV[1]))
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
  redis.call('XADD', KEYS[5], '*', 'type', 'EXPIRED', 'at', now,
    'users', table.concat(users, ','))
  redis.call('HINCRBY', KEYS[4], 'expiredTotal', expired)
end

-- A deleted queue: its line is told EXPIRED a slice at a time (into gone, audited), nobody is admitted, and it is
-- drained when nobody waits or holds an entry and the audit stream is relayed. The grace outlasts ingest's cache of the
-- queue (a few seconds), so the log's last enters of it are applied (to gone: append_waiting.lua) before it goes.
local DELETE_GRACE_MS = 60000
local deletedAt = tonumber(settings[7])
if deletedAt then
  local users = redis.call('ZRANGE', KEYS[1], 0, bound - 1)
  if #users > 0 then
    for first = 1, #users, 1000 do
      local last = math.min(first + 999, #users)
      redis.call('ZREM', KEYS[1], unpack(users, first, last))
      redis.call('SADD', KEYS[6], unpack(users, first, last))
    end
    redis.call('XADD', KEYS[5], '*', 'type', 'EXPIRED', 'at', now,
      'users', table.concat(users, ','))
    redis.call('HINCRBY', KEYS[4], 'expiredTotal', #users)
  end
  local active = redis.call('ZCARD', KEYS[2])
  local waiting = redis.call('ZCARD', KEYS[1])
  local drained = active == 0 and waiting == 0 and redis.call('XLEN', KEYS[5]) == 0
    and now >= deletedAt + DELETE_GRACE_MS
  return {0, expired + #users, active, waiting, 0, drained and 1 or 0, 0}
end

-- Abandoned places: users not seen for abandonAfterSeconds are the lowest scores of seen:{p}, so one range by score
-- finds them without walking the line. Some of them may have left or been admitted meanwhile; only those still
-- waiting lose a place (and go to gone, so they read EXPIRED).
local abandoned = 0
if abandonMs > 0 then
  local stale = redis.call('ZRANGEBYSCORE', KEYS[8], '-inf', now - abandonMs, 'LIMIT', 0, bound)
  local users = {}
  for first = 1, #stale, 1000 do
    local last = math.min(first + 999, #stale)
    redis.call('ZREM', KEYS[8], unpack(stale, first, last))
    local scores = redis.call('ZMSCORE', KEYS[1], unpack(stale, first, last))
    for i = 1, last - first + 1 do
      if scores[i] then
        users[#users + 1] = stale[first + i - 1]
      end
    end
  end
  abandoned = #users
  if abandoned > 0 then
    for first = 1, abandoned, 1000 do
      local last = math.min(first + 999, abandoned)
      redis.call('ZREM', KEYS[1], unpack(users, first, last))
      redis.call('SADD', KEYS[6], unpack(users, first, last))
    end
    redis.call('XADD', KEYS[5], '*', 'type', 'ABANDONED', 'at', now,
      'users', table.concat(users, ','))
    redis.call('HINCRBY', KEYS[4], 'abandonedTotal', abandoned)
  end
elseif redis.call('EXISTS', KEYS[8]) == 1 then
  -- poll times kept for a poll budget alone: forget those older than an hour (users who left, mostly), so the set
  -- does not grow with everyone who ever waited; such a user's next poll is simply not compared with the last
  redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', now - 3600000)
end

-- Fair start: the users the line took in before opensAt (sequences up to earlySeq) are re-placed by
-- fair_score(seed, userId) (lib/fair_start.lua): negative scores, ahead of everyone who joined later, in the order
-- the seed gives. The seed is drawn now, after the opening, stored and published with the first re-placed users, so
-- nobody could know it before and anyone can recompute the order (and a restore of the sale does, from the log). Each step re-places at most `bound` of them; until all are, nobody is admitted and polls
-- show no position.
local opened = now >= opensAt
local shuffling = false
if opensAt > 0 and opened then
  local fair = redis.call('HMGET', KEYS[4], 'earlySeq', 'seed', 'openedFor')
  if fair[1] then
    local seed = fair[2]
    -- the first step of this opening draws the seed; the next ones of the same opening go on with it
    if fair[3] ~= settings[6] then
      seed = ARGV[3]
      redis.call('HSET', KEYS[4], 'seed', seed, 'openedFor', settings[6], 'openedAt', now)
    end
    local early = redis.call('ZRANGEBYSCORE', KEYS[1], '(0', fair[1], 'LIMIT', 0, bound)
    if #early > 0 then
      local args = {}
      for i = 1, #early do
        args[2 * i - 1] = fair_score(seed, early[i])
        args[2 * i] = early[i]
      end
      for first = 1, #args, 2000 do
        redis.call('ZADD', KEYS[1], 'XX', unpack(args, first, math.min(first + 1999, #args)))
      end
      redis.call('XADD', KEYS[5], '*', 'type', 'SHUFFLED', 'at', now, 'seed', seed,
        'users', table.concat(early, ','))
    end
    if #early < bound then
      redis.call('HDEL', KEYS[4], 'earlySeq')
    else
      shuffling = true
    end
  end
end
local active = redis.call('ZCARD', KEYS[2])
local waiting = redis.call('ZCARD', KEYS[1])
local stock = tonumber(redis.call('GET', KEYS[7]))
local admitting = open and opened and not shuffling and not (stock and stock <= 0)

-- Refill the bucket; it holds at most one second of admissions.
local bucket = redis.call('HMGET', KEYS[4], 'bucket', 'bucketAt')
local tokens = tonumber(bucket[1]) or rate
local last = tonumber(bucket[2]) or now
if now > last then
  tokens = math.min(rate, tokens + (now - last) * rate / 1000)
  last = now
end

local admitted = 0
if admitting and waiting > 0 then
  admitted = math.max(0, math.min(maxActive - active, math.floor(tokens), bound, waiting))
end
local head = {}
local held = admitted > 0 and redis.call('SCARD', KEYS[9]) or 0
if admitted > 0 and held == 0 then
  -- ZRANGE and ZREMRANGEBYRANK rather than ZPOPMIN: the sequence scores are not needed, and formatting each
  -- one for Lua was a tenth of a large step.
  head = redis.call('ZRANGE', KEYS[1], 0, admitted - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, admitted - 1)
elseif admitted > 0 then
  -- the first `admitted` users who are not held are among the first admitted + held of the line
  local candidates = redis.call('ZRANGE', KEYS[1], 0, admitted + held - 1)
  for first = 1, #candidates, 1000 do
    local last = math.min(first + 999, #candidates)
    local flags = redis.call('SMISMEMBER', KEYS[9], unpack(candidates, first, last))
    for i = 1, last - first + 1 do
      if flags[i] == 0 and #head < admitted then
        head[#head + 1] = candidates[first + i - 1]
      end
    end
  end
  for first = 1, #head, 1000 do
    redis.call('ZREM', KEYS[1], unpack(head, first, math.min(first + 999, #head)))
  end
  admitted = #head
end
if admitted > 0 then
  local expiresAt = now + ttlMs
  -- formatted once: a Lua number given to redis.call is formatted with %.17g for every member, a quarter of the
  -- step's time at 10,000
  local score = string.format('%d', expiresAt)
  local args = {}
  local withSeen = redis.call('EXISTS', KEYS[8]) == 1
  for first = 1, #head, 1000 do
    local n = 0
    for i = first, math.min(first + 999, #head) do
      args[n + 1] = score
      args[n + 2] = head[i]
      n = n + 2
    end
    redis.call('ZADD', KEYS[2], unpack(args, 1, n))
    if withSeen then
      redis.call('ZREM', KEYS[8], unpack(head, first, math.min(first + 999, #head)))
    end
  end
  tokens = tokens - admitted
  redis.call('HINCRBY', KEYS[4], 'admittedTotal', admitted)
  redis.call('XADD', KEYS[5], '*', 'type', 'ADMITTED', 'at', now,
    'expiresAt', expiresAt, 'users', table.concat(head, ','))
end
redis.call('HSET', KEYS[4], 'bucket', tostring(tokens), 'bucketAt', last)

-- The pace: admissions per second actually made, whatever limited them (rate, capacity, bookings, expiries),
-- measured only over stretches in which the line could move and did not run dry, so that an idle, closed or sold
-- out line, or one emptied by this step, does not pass for a slow one. It is a ratio of two exponentially
-- weighted sums, admitted users over elapsed time, each older interval weighing exp(-age / PACE_TAU_MS): recent
-- enough to follow a change of pace within a minute, long enough that admissions in waves (capacity freed when a
-- group of entries expires together) read as their average. A stretch starts without counting its first step,
-- whose admissions filled capacity that was idle before. The pace is published once PACE_HISTORY_MS of weighted
-- time lies behind it; before that, polls estimate with admitPerSecond.
-- It is published at the steps that admit, not in between: read between two waves, the ratio would count the time
-- since the last wave without the wave that ends it, and swing by a wave's worth. Between admissions it is
-- lowered only once the line has waited more than twice as long as the last batch should take at the published
-- pace (the line slowed down or stopped), and before any counted admission it is whatever the ratio says (0).
local PACE_TAU_MS = 30000
local PACE_HISTORY_MS = 10000
-- a longer gap between two steps (no worker ran) breaks the stretch instead of reading as a slow line
local PACE_MAX_GAP_MS = 2000
if admitting and waiting > admitted then
  local pace = redis.call('HMGET', KEYS[4], 'paceAt', 'paceCount', 'paceTime', 'pace', 'paceBatchAt', 'paceBatch')
  local at = tonumber(pace[1])
  if at and now > at and now - at <= PACE_MAX_GAP_MS then
    local decay = math.exp((at - now) / PACE_TAU_MS)
    local count = (tonumber(pace[2]) or 0) * decay + admitted
    local time = (tonumber(pace[3]) or 0) * decay + (now - at)
    redis.call('HSET', KEYS[4], 'paceAt', now, 'paceCount', tostring(count), 'paceTime', tostring(time))
    if admitted > 0 then
      redis.call('HSET', KEYS[4], 'paceBatchAt', now, 'paceBatch', admitted)
    end
    if time >= PACE_HISTORY_MS then
      local published = tonumber(pace[4])
      local batchAt = tonumber(pace[5])
      local overdue = not published or not batchAt or published <= 0
        or (now - batchAt) * published > 2000 * tonumber(pace[6])
      if admitted > 0 or overdue then
        redis.call('HSET', KEYS[4], 'pace', tostring(count * 1000 / time))
      end
    end
  elseif not at or now - at > PACE_MAX_GAP_MS then
    redis.call('HSET', KEYS[4], 'paceAt', now)
  end
else
  redis.call('HDEL', KEYS[4], 'paceAt')
end
return {admitted, expired, active + admitted, waiting - admitted, abandoned, 0, 0}
