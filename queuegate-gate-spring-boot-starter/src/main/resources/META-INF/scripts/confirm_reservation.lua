-- Confirms a reservation whose booking the bookings topic acknowledged: from now on it is never undone.
-- KEYS[1] bookings:{p}   KEYS[2] reservations:{p}   KEYS[3] reserved-at:{p}
-- ARGV[1] booking id
-- Returns 1 when the booking stands (confirmed now, or by the admission worker's sweeper, which found it in the
-- log), 0 when the reservation was undone before this step: the sweeper took it for stranded and gave the token and
-- the stock back (its RESTORED change names the booking, so its record in the topic books nothing).
--
-- One step with release_reservation.lua and settle_reservation.lua: the mark goes in the step that decides, so a
-- booking and the sweeper never both win.
if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return 1
end
return redis.call('HEXISTS', KEYS[1], ARGV[1])
