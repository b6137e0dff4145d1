#!lua
-- Gives a Redis that lost a product's sale back one slice of what the log says about its places.
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] gone:{p}   KEYS[4] bookings:{p}
-- ARGV[1] what the slice holds:
--   'gone'     ARGV[2..] users whose place is gone (left, expired, abandoned, used): out of the line for good
--   'entry'    ARGV[2..] pairs of expiry (epoch ms) and user: admitted users, given their entry back
--   'booking'  ARGV[2..] pairs of booking id and booking record (JSON), as the gate stores them
-- Returns how many were written.
--
-- Idempotent, so that two workers restoring at once, or a restore that is repeated, change nothing twice: a user
-- already gone is never given an entry, an entry or booking already there is kept. The caller sends slices of at
-- most a thousand, so that unpack() stays within its limits and Redis is never held long.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local kind = ARGV[1]
local written = 0
if kind == 'gone' then
  for i = 2, #ARGV do
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
    written = written + redis.call('SADD', KEYS[3], ARGV[i])
  end
elseif kind == 'entry' then
  for i = 2, #ARGV - 1, 2 do
    local user = ARGV[i + 1]
    if redis.call('SISMEMBER', KEYS[3], user) == 0 then
      redis.call('ZREM', KEYS[1], user)
      written = written + redis.call('ZADD', KEYS[2], 'NX', ARGV[i], user)
    end
  end
elseif kind == 'booking' then
  for i = 2, #ARGV - 1, 2 do
    written = written + redis.call('HSETNX', KEYS[4], ARGV[i], ARGV[i + 1])
  end
end
return written
