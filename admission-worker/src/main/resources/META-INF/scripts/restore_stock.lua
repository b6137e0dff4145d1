#!lua
-- Gives a Redis that lost a product's sale, or only its last writes, back its stock and the count of units booked.
-- KEYS[1] stock:{p}   KEYS[2] stats:{p}
-- ARGV[1] the units booked, as the bookings topic holds them
-- ARGV[2] the stock left by the log (the last stock setting minus the units booked since), or '' when none was set
-- ARGV[3] the last stock setting in the log as '<available>:<bookedUnits>', or '' when none was set
-- Returns 1 when the stock was written, 0 otherwise.
--
-- A Redis without a count of units booked lost the sale: the stock comes from the log, unless one was set since
-- the loss (it is newer, and kept). A Redis with a count kept an older state of the sale: the bookings it lost were
-- given back before this step (restore_places.lua 'booking'), each taking its units off the stock and adding them to
-- the count, so the stock is right as long as Redis holds the log's last stock setting (stats:{p} stockSetting).
-- When it holds an older one (the last setting was lost), the stock becomes that setting minus the units booked
-- since, as Redis counts them now: the log's bookings and any made since the loss. So a restore repeated, or run
-- on a Redis that lost nothing, changes nothing.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local booked = redis.call('HGET', KEYS[2], 'bookedUnits')
local logged = tonumber(ARGV[1])
if not booked then
  redis.call('HSET', KEYS[2], 'bookedUnits', logged)
  if ARGV[2] ~= '' and redis.call('SET', KEYS[1], ARGV[2], 'NX') then
    redis.call('HSET', KEYS[2], 'stockSetting', ARGV[3])
    return 1
  end
  return 0
end
if ARGV[3] == '' or redis.call('HGET', KEYS[2], 'stockSetting') == ARGV[3] then
  return 0
end
local available, at = string.match(ARGV[3], '^(%d+):(%d+)$')
local left = tonumber(available) - math.max(0, tonumber(booked) - tonumber(at))
redis.call('SET', KEYS[1], math.max(0, left))
redis.call('HSET', KEYS[2], 'stockSetting', ARGV[3])
return 1
