#!lua
-- Settles a reservation its booking service left unconfirmed past the publish timeout and a margin (killed between
-- the reservation and the publish, or while it chased an unknown outcome): confirmed when its booking is in the
-- bookings topic, released when it is not, as the gate's own release does.
-- KEYS[1] entry:{p}   KEYS[2] stock:{p}   KEYS[3] bookings:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] reservations:{p}   KEYS[7] gone:{p}   KEYS[8] reserved-at:{p} (the gate's keys, in the gate's order)
-- ARGV[1] booking id   ARGV[2] CONFIRM (its booking is in the topic) or RELEASE (it is not)
-- Returns 'CONFIRMED', 'RELEASED', or 'SETTLED' when the reservation was settled before this step.
--
-- The reservation's mark (reservations:{p}) goes in the step that decides, here as in the gate's
-- confirm_reservation.lua and release_reservation.lua: a booking service confirming late and this sweeper never both
-- win. A release gives back the stock, the entry with its original expiry and the token's place, and writes the
-- RESTORED change the gate writes, naming the booking: should its record reach the topic after all, a restore from
-- the log books nothing for it, and the booking service, whose confirm then fails, answers 503.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local expiresAt = redis.call('HGET', KEYS[6], ARGV[1])
if not expiresAt then
  redis.call('ZREM', KEYS[8], ARGV[1])
  return 'SETTLED'
end
redis.call('HDEL', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[8], ARGV[1])
if ARGV[2] == 'CONFIRM' then
  return 'CONFIRMED'
end
local record = redis.call('HGET', KEYS[3], ARGV[1])
if not record then
  -- a mark without its booking record is nothing to give back
  return 'SETTLED'
end
local booking = cjson.decode(record)
local user = booking['userId']
local quantity = tonumber(booking['quantity'])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('INCRBY', KEYS[2], quantity)
redis.call('ZADD', KEYS[1], 'NX', expiresAt, user)
redis.call('SREM', KEYS[7], user)
redis.call('HINCRBY', KEYS[4], 'consumedTotal', -1)
redis.call('HINCRBY', KEYS[4], 'bookedUnits', -quantity)
redis.call('XADD', KEYS[5], '*', 'type', 'RESTORED', 'at', time_ms(), 'users', user,
  'bookingId', ARGV[1])
return 'RELEASED'
