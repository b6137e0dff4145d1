#!lua
-- Validates an admitted user's entry and consumes it in the same step that reserves stock and records the booking.
-- KEYS[1] entry:{p}   KEYS[2] stock:{p}   KEYS[3] bookings:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] reservations:{p} (booking id -> the entry's expiry, until the booking is confirmed durable)
-- KEYS[7] gone:{p} (users whose place is used or expired)
-- KEYS[8] reserved-at:{p} (booking id -> when reserved, for the admission worker's sweeper of stranded reservations)
-- ARGV[1] user id (the verified token's)   ARGV[2] quantity   ARGV[3] now in epoch ms, or 0 to read Redis TIME
-- ARGV[4] booking id   ARGV[5] booking record (JSON)
-- ARGV[6] the most unrelayed changes audit:{p} may hold for a reservation to be made (below); without it, no bound
-- Returns {'RESERVED', expiresAt, stockLeft}, {'SOLD_OUT', stockLeft}, {'NOT_ADMITTED'}, {'RESTORING'} or
-- {'AUDIT_BACKLOG'}.
--
-- All or nothing: two requests with one token cannot both pass, because the check and the removal are one
-- atomic step. Sold out leaves the user in entry, so its holder may try a smaller quantity. A missing
-- stock key counts as zero: the gate fails closed.
-- RESTORING: the Redis process serving the product is not the one its line was last written by or restored for
-- (stats:{p} run, see append_waiting.lua): it restarted or failed over and may have lost its last writes, a booking
-- among them, whose token would then pass again and whose units would be sold twice. Nothing is written until the
-- admission worker has restored the sale from the log (about a second); the caller answers 503 with Retry-After.
-- AUDIT_BACKLOG: audit:{p}, which only the relay trims once Kafka has a change, holds ARGV[6] changes (Kafka or the
-- relay away for long). Nothing is written, so no change is ever dropped and Redis stays bounded; the caller answers
-- 503 with Retry-After. Bookings of admitted users go on past the admission step's own, lower bound (a change or two
-- per admitted user); this one is reached only while bookings keep failing to reach Kafka and are undone (a CONSUMED
-- and a RESTORED change each), and those fail while Kafka is away anyway. Releases are never refused.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local run = redis.call('HGET', KEYS[4], 'run')
if run and run ~= run_id() then
  return {'RESTORING'}
end
local auditLimit = tonumber(ARGV[6])
if auditLimit and redis.call('XLEN', KEYS[5]) >= auditLimit then
  return {'AUDIT_BACKLOG'}
end
local user = ARGV[1]
local expiresAt = redis.call('ZSCORE', KEYS[1], user)
if not expiresAt then
  return {'NOT_ADMITTED'}
end
local now = now_ms(tonumber(ARGV[3]))
if tonumber(expiresAt) <= now then
  redis.call('ZREM', KEYS[1], user)
  redis.call('SADD', KEYS[7], user)
  redis.call('HINCRBY', KEYS[4], 'expiredTotal', 1)
  redis.call('XADD', KEYS[5], '*', 'type', 'EXPIRED', 'at', now, 'users', user)
  return {'NOT_ADMITTED'}
end
local quantity = tonumber(ARGV[2])
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if stock < quantity then
  return {'SOLD_OUT', stock}
end
redis.call('ZREM', KEYS[1], user)
redis.call('SADD', KEYS[7], user)
redis.call('DECRBY', KEYS[2], quantity)
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
redis.call('HSET', KEYS[6], ARGV[4], expiresAt)
redis.call('ZADD', KEYS[8], now, ARGV[4])
redis.call('HINCRBY', KEYS[4], 'consumedTotal', 1)
-- the units booked so far; a stock setting records it, so a rebuild knows which bookings came after it
redis.call('HINCRBY', KEYS[4], 'bookedUnits', quantity)
redis.call('XADD', KEYS[5], '*', 'type', 'CONSUMED', 'at', now, 'users', user,
  'bookingId', ARGV[4], 'quantity', quantity)
return {'RESERVED', expiresAt, stock - quantity}
