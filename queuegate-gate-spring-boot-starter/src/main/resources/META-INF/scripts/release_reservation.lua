#!lua
-- Undoes a reservation whose booking could not be made durable: stock, booking record and entry come back.
-- KEYS[1] entry:{p}   KEYS[2] stock:{p}   KEYS[3] bookings:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- KEYS[6] reservations:{p}   KEYS[7] gone:{p}   KEYS[8] reserved-at:{p}
-- ARGV[1] user id   ARGV[2] quantity   ARGV[3] the entry's expiry, epoch ms   ARGV[4] booking id
-- Returns 1 when the reservation was undone, 0 when it was settled already (undone, or confirmed).
--
-- The reservation's mark is the proof it is still unsettled, and confirm_reservation.lua (the booking service) and
-- settle_reservation.lua (the admission worker's sweeper) take it in one step as well: whichever runs first settles
-- the reservation, so a booking confirmed is never undone and one undone is never confirmed. The entry returns with
-- its original expiry; admission expires it as usual if that time has passed. The RESTORED change names the booking:
-- should its record reach the bookings topic after all, a restore from the log books nothing for it.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
if redis.call('HDEL', KEYS[6], ARGV[4]) == 0 then
  return 0
end
redis.call('ZREM', KEYS[8], ARGV[4])
redis.call('HDEL', KEYS[3], ARGV[4])
redis.call('INCRBY', KEYS[2], tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
redis.call('SREM', KEYS[7], ARGV[1])
redis.call('HINCRBY', KEYS[4], 'consumedTotal', -1)
redis.call('HINCRBY', KEYS[4], 'bookedUnits', -tonumber(ARGV[2]))
local now = time_ms()
redis.call('XADD', KEYS[5], '*', 'type', 'RESTORED', 'at', now, 'users', ARGV[1],
  'bookingId', ARGV[4])
return 1
