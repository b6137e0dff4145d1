#!lua
-- Holds a user of one product's line, or releases one, and audits the change.
-- KEYS[1] held:{p}   KEYS[2] audit:{p}
-- ARGV[1] '1' to hold, '0' to release   ARGV[2] the user id   ARGV[3] the most users the line may hold
-- Returns 1 when the set changed, 0 when it already was so (nothing audited then), -1 when holding one more would
-- pass ARGV[3] (nothing written).
--
-- A held user keeps the place in waiting:{p} and reads WAITING with the position; the admission step passes over
-- held users (admit_batch.lua), so the bound keeps its work small. Audited as HELD or RELEASED, so the operator view
-- and the audit topic show who did what to whom. The #!lua line makes Redis refuse the script before it starts when
-- out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local changed
if ARGV[1] == '1' then
  if redis.call('SISMEMBER', KEYS[1], ARGV[2]) == 0 and redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    return -1
  end
  changed = redis.call('SADD', KEYS[1], ARGV[2])
else
  changed = redis.call('SREM', KEYS[1], ARGV[2])
end
if changed == 1 then
  redis.call('XADD', KEYS[2], '*', 'type', ARGV[1] == '1' and 'HELD' or 'RELEASED',
    'at', time_ms(), 'users', ARGV[2])
end
return changed
