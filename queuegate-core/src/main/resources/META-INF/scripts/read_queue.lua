-- Reads a queue's settings and the size of its line in one round trip.
-- KEYS[1] queue:{p}   KEYS[2] waiting:{p}   KEYS[3] entry:{p}   KEYS[4] stats:{p}
-- Returns {maxActive, admitPerSecond, entryTtlSeconds, open, waiting, active, admittedTotal}, or {} when unknown.
local s = redis.call('HMGET', KEYS[1], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open')
if not s[1] then
  return {}
end
return {s[1], s[2], s[3], s[4], redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]),
        redis.call('HGET', KEYS[4], 'admittedTotal') or '0'}
