-- Reads a queue's settings, the size of its line and its measured pace in one round trip.
-- KEYS[1] queue:{p}   KEYS[2] waiting:{p}   KEYS[3] entry:{p}   KEYS[4] stats:{p}   KEYS[5] stock:{p}
-- Returns {maxActive, admitPerSecond, entryTtlSeconds, open, waiting, active, admittedTotal, maxPollsPerSecond,
-- abandonAfterSeconds, pace, stock}, or {} when unknown. Optional settings, the pace (before there is history)
-- and the stock (none set) are false when absent.
local s = redis.call('HMGET', KEYS[1], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open',
  'maxPollsPerSecond', 'abandonAfterSeconds')
if not s[1] then
  return {}
end
return {s[1], s[2], s[3], s[4], redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]),
        redis.call('HGET', KEYS[4], 'admittedTotal') or '0', s[5], s[6], redis.call('HGET', KEYS[4], 'pace'),
        redis.call('GET', KEYS[5])}
