#!lua
-- Gives a Redis that lost a product's sale back one slice of what the log says about its places.
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] gone:{p}   KEYS[4] bookings:{p}   KEYS[5] stock:{p}
-- KEYS[6] stats:{p}   KEYS[7] seen:{p} (only written by 'shuffled' on a queue with abandonAfterSeconds)
-- ARGV[1] what the slice holds:
--   'gone'     ARGV[2..] users whose place is gone (left, expired, abandoned, used): out of the line for good
--   'entry'    ARGV[2..] pairs of expiry (epoch ms) and user: admitted users, given their entry back
--   'booking'  ARGV[2..] pairs of booking id and booking record (JSON), as the gate stores them; on a Redis that
--              kept a count of units booked (it lost only its last writes), a booking it lacked takes its units
--              off the stock and adds them to the count, as the booking did; on one that lost the sale the stock
--              and the count come from the log afterwards (restore_stock.lua)
--   'shuffled' ARGV[2] the seed a fair start's opening drew, ARGV[3] the queue's opensAt it was drawn for,
--              ARGV[4] '1' when the queue has abandonAfterSeconds, ARGV[5..] early entrants it re-placed: each still
--              waiting, or not placed at all, is placed where the opening put them (fair_score, lib/fair_start.lua),
--              ahead of the line's replay, which then skips them (and, as joining the line does, counts as seen now);
--              the seed is stored as the opening stored it, so an opening that had not re-placed everyone yet goes
--              on with the same seed. Users gone or holding an entry (restored before this) are left alone.
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
elseif kind == 'shuffled' then
  local seed = ARGV[2]
  redis.call('HSET', KEYS[6], 'seed', seed, 'openedFor', ARGV[3])
  local now = ARGV[4] == '1' and time_ms()
  for i = 5, #ARGV do
    local user = ARGV[i]
    if redis.call('SISMEMBER', KEYS[3], user) == 0 and not redis.call('ZSCORE', KEYS[2], user) then
      local score = fair_score(seed, user)
      if tonumber(redis.call('ZSCORE', KEYS[1], user) or '0') ~= score then
        redis.call('ZADD', KEYS[1], score, user)
        if now then
          redis.call('ZADD', KEYS[7], 'NX', now, user)
        end
        written = written + 1
      end
    end
  end
elseif kind == 'booking' then
  local counted = redis.call('HEXISTS', KEYS[6], 'bookedUnits') == 1
  for i = 2, #ARGV - 1, 2 do
    if redis.call('HSETNX', KEYS[4], ARGV[i], ARGV[i + 1]) == 1 then
      written = written + 1
      if counted then
        local quantity = tonumber(cjson.decode(ARGV[i + 1]).quantity) or 1
        redis.call('HINCRBY', KEYS[6], 'bookedUnits', quantity)
        if redis.call('EXISTS', KEYS[5]) == 1 then
          local left = redis.call('DECRBY', KEYS[5], quantity)
          if left < 0 then
            redis.call('SET', KEYS[5], 0)
          end
        end
      end
    end
  end
end
return written
