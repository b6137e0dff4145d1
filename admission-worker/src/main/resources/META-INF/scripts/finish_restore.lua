#!lua
-- Marks a product's line as restored on the Redis process that serves it now, so that the writer may append again.
-- KEYS[1] stats:{p}
-- Returns 1.
--
-- append_waiting.lua refuses every chunk of a line last written by another Redis process (restarted or failed over
-- since, with perhaps its last writes lost). The restore runs this last for each product, once the users gone,
-- the entries, the bookings and the stock are back, and before the writer reads the log again.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
redis.call('HSET', KEYS[1], 'run', run_id())
return 1
