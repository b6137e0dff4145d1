#!lua
-- Stores a queue's settings: every field given is set, every optional field left out is deleted.
-- KEYS[1] queue:{p}
-- ARGV field, value, field, value, ...; an empty value deletes the field (an optional setting left out)
-- Returns the number of fields set.
--
-- One step, so a reader (the admission tick, a poll) never sees half of a change: a queue whose budget was just
-- removed never shows the old budget with the new rate.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local set = {}
local unset = {}
for i = 1, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    unset[#unset + 1] = ARGV[i]
  else
    set[#set + 1] = ARGV[i]
    set[#set + 1] = ARGV[i + 1]
  end
end
if #unset > 0 then
  redis.call('HDEL', KEYS[1], unpack(unset))
end
if #set > 0 then
  redis.call('HSET', KEYS[1], unpack(set))
end
return #set / 2
