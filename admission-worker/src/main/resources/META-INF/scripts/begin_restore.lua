#!lua
-- Marks a product's sale as being restored for this Redis's lines' epoch, and on a Redis that was found empty first
-- drops what stale writes put in its line.
-- KEYS[1] waiting:{p}   KEYS[2] seen:{p}   KEYS[3] stats:{p}
-- ARGV[1] the lines' epoch   ARGV[2] '1' when the restoring writer found the Redis without an epoch, else '0'
-- Returns 1 when this call marked the product, 0 when a restore for this epoch had already marked it.
--
-- A batch that checked the old Redis's epoch can still land on the new, empty one (its commands queued while Redis
-- was away): such a chunk starts the line in the middle and records its offset, and the replay would then skip the
-- start. On a Redis the writer found without an epoch nothing else can have written the line yet, so it is dropped
-- and the replay writes it whole; stats:{p} keeps its other fields (a Redis restored by hand after losing only its
-- last writes keeps its count of units booked). Only the first restore for an epoch may drop it: a second worker's
-- restore comes after the first one's, and that worker may already be replaying.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
if redis.call('HGET', KEYS[3], 'restoredFor') == ARGV[1] then
  return 0
end
if ARGV[2] == '1' then
  redis.call('DEL', KEYS[1], KEYS[2])
  -- the line's own fields; the units booked and the rest of the counters stay
  for _, field in ipairs(redis.call('HKEYS', KEYS[3])) do
    if string.find(field, '^applied:') or field == 'seq' or field == 'enteredTotal' or field == 'earlySeq' then
      redis.call('HDEL', KEYS[3], field)
    end
  end
end
redis.call('HSET', KEYS[3], 'restoredFor', ARGV[1])
return 1
