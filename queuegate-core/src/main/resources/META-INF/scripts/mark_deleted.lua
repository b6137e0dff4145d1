#!lua
-- Marks a queue deleted: closed to new users, and its admission steps drain it (admit_batch.lua).
-- KEYS[1] queue:{p}   ARGV[1] epoch milliseconds of the deletion
-- Returns 1 when the queue was marked, 0 when it has no settings (nothing written).
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'open', 'false', 'deletedAt', ARGV[1])
return 1
