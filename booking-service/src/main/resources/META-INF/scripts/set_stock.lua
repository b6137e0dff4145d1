#!lua
-- Sets a product's stock and reads the units it has booked so far, in one step.
-- KEYS[1] stock:{p}   KEYS[2] stats:{p}
-- ARGV[1] the units left to sell
-- Returns stats:{p} bookedUnits (0 when nothing was booked).
--
-- The setting is published with that count (StockSet): a Redis rebuilt from the log takes off only the bookings
-- made after it, which are the ones beyond that count, so the stock comes back as set minus what was booked since.
-- Read in the same step as the write, no booking can fall between the two. stats:{p} stockSetting keeps the setting
-- as published ('<available>:<bookedUnits>'), so that a restore can tell a Redis that lost a later one.
redis.call('SET', KEYS[1], ARGV[1])
local booked = tonumber(redis.call('HGET', KEYS[2], 'bookedUnits') or '0')
redis.call('HSET', KEYS[2], 'stockSetting', ARGV[1] .. ':' .. booked)
return booked
