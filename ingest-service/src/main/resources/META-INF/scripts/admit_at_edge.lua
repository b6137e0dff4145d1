#!lua
-- Admits one visitor on the spot, at the edge, while nobody waits: the product's line is empty, it has room under
-- maxActive and a token in its rate bucket, it is open, opened, not shuffling its early entrants, not sold out, and
-- not restoring. Otherwise nothing is written and the visitor is sent to the line like anyone else.
-- KEYS[1] queue:{p}   KEYS[2] waiting:{p}   KEYS[3] entry:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] stock:{p}
-- ARGV[1] the new visitor's user id   ARGV[2] now in epoch ms, or 0 to read Redis TIME
-- ARGV[3] the most unrelayed changes audit:{p} may hold: at that many nobody is admitted here, as admit_batch.lua
--         holds (Kafka or the audit relay away), so that no admission goes unaudited
-- Returns {1, expiresAt} when admitted; {0, reason} when not: 'UNKNOWN' (no queue), 'CLOSED' (closed or deleted),
-- 'NOT_OFFERED' (identity other than visitor, or proof of work asked: such a queue wants everyone through its door),
-- 'NOT_YET' (before opensAt, or its early entrants are still being placed), 'RESTORING', 'SOLD_OUT', 'LINE' (people
-- wait), 'FULL' (maxActive reached), 'RATE' (the bucket is empty) or 'AUDIT_BACKLOG' (ARGV[3] reached).
--
-- Atomic, so edges and admission workers may call at once: an admission here and one by admit_batch.lua read and
-- write the same entry set and the same rate bucket in one step each, so active never exceeds maxActive and the two
-- together never admit faster than admitPerSecond. Audited and counted as admit_batch.lua does (ADMITTED,
-- admittedTotal), with edgeAdmittedTotal besides.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and run_id are the shared clock and process (lib/), which QueueScripts puts before this script.
local s = redis.call('HMGET', KEYS[1], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open', 'opensAt',
  'deletedAt', 'identity', 'inviteOnly', 'challengeMaxNumber')
if not s[1] then
  return {0, 'UNKNOWN'}
end
if s[4] ~= 'true' or s[6] then
  return {0, 'CLOSED'}
end
local identity = s[7] or (s[8] == 'true' and 'pass' or 'visitor')
if identity ~= 'visitor' or (tonumber(s[9]) or 0) > 0 then
  return {0, 'NOT_OFFERED'}
end
local now = now_ms(tonumber(ARGV[2]))
if now < (tonumber(s[5]) or 0) or redis.call('HEXISTS', KEYS[4], 'earlySeq') == 1 then
  return {0, 'NOT_YET'}
end
local run = redis.call('HGET', KEYS[4], 'run')
if run and run ~= run_id() then
  return {0, 'RESTORING'}
end
if redis.call('XLEN', KEYS[5]) >= tonumber(ARGV[3]) then
  return {0, 'AUDIT_BACKLOG'}
end
local stock = tonumber(redis.call('GET', KEYS[6]))
if stock and stock <= 0 then
  return {0, 'SOLD_OUT'}
end
if redis.call('ZCARD', KEYS[2]) > 0 then
  return {0, 'LINE'}
end
-- entries past their expiry are not active; the admission step takes them out at its next tick
if redis.call('ZCOUNT', KEYS[3], '(' .. now, '+inf') >= tonumber(s[1]) then
  return {0, 'FULL'}
end
-- the admission step's bucket (admit_batch.lua), refilled the same way: at most one second of admissions
local rate = tonumber(s[2])
local bucket = redis.call('HMGET', KEYS[4], 'bucket', 'bucketAt')
local tokens = tonumber(bucket[1]) or rate
local last = tonumber(bucket[2]) or now
if now > last then
  tokens = math.min(rate, tokens + (now - last) * rate / 1000)
  last = now
end
if tokens < 1 then
  return {0, 'RATE'}
end
local expiresAt = now + tonumber(s[3]) * 1000
redis.call('ZADD', KEYS[3], string.format('%d', expiresAt), ARGV[1])
redis.call('HSET', KEYS[4], 'bucket', tostring(tokens - 1), 'bucketAt', last)
redis.call('HINCRBY', KEYS[4], 'admittedTotal', 1)
redis.call('HINCRBY', KEYS[4], 'edgeAdmittedTotal', 1)
redis.call('XADD', KEYS[5], '*', 'type', 'ADMITTED', 'at', now, 'expiresAt', expiresAt,
  'users', ARGV[1], 'via', 'edge')
return {1, expiresAt}
