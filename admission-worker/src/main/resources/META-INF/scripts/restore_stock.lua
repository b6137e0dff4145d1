#!lua
-- Gives a Redis that lost a product's sale back its stock and the count of units booked.
-- KEYS[1] stock:{p}   KEYS[2] stats:{p}
-- ARGV[1] the units booked, as the bookings topic holds them
-- ARGV[2] the stock left by the log (the last stock setting minus the units booked since), or '' when none was set
-- Returns 1 when the stock was written, 0 otherwise.
--
-- A Redis without a count of units booked lost the sale: the stock comes from the log, unless one was set since
-- the loss (it is newer, and kept). A Redis whose count is below the log's lost its last bookings but kept an
-- older stock: the units of those bookings are taken off it, never below zero. Otherwise Redis is ahead of or
-- level with the log and nothing changes, so a restore repeated, or run on a Redis that lost nothing, is harmless.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local booked = redis.call('HGET', KEYS[2], 'bookedUnits')
local logged = tonumber(ARGV[1])
if not booked then
  redis.call('HSET', KEYS[2], 'bookedUnits', logged)
  if ARGV[2] ~= '' and redis.call('SET', KEYS[1], ARGV[2], 'NX') then
    return 1
  end
  return 0
end
if tonumber(booked) < logged and redis.call('EXISTS', KEYS[1]) == 1 then
  local left = tonumber(redis.call('DECRBY', KEYS[1], logged - tonumber(booked)))
  if left < 0 then
    redis.call('SET', KEYS[1], 0)
  end
  redis.call('HSET', KEYS[2], 'bookedUnits', logged)
  return 1
end
return 0
