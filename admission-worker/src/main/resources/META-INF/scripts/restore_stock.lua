#!lua
-- Gives a Redis that lost a product's sale back its stock and the count of units booked.
-- KEYS[1] stock:{p}   KEYS[2] stats:{p}
-- ARGV[1] the units booked, as the bookings topic holds them   ARGV[2] the stock left, or '' when none was set
-- Returns 1 when the stock was written, 0 when Redis already had one (set since the loss: it is newer) or none
-- was ever set.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
redis.call('HSETNX', KEYS[2], 'bookedUnits', ARGV[1])
if ARGV[2] == '' then
  return 0
end
if redis.call('SET', KEYS[1], ARGV[2], 'NX') then
  return 1
end
return 0
