-- Reads a queue's settings, the size of its line, its measured pace and its opening seed in one round trip.
-- KEYS[1] queue:{p}   KEYS[2] waiting:{p}   KEYS[3] entry:{p}   KEYS[4] stats:{p}   KEYS[5] stock:{p}
-- KEYS[6] held:{p}   KEYS[7] audit:{p}
-- Returns {maxActive, admitPerSecond, entryTtlSeconds, open, waiting, active, admittedTotal, maxPollsPerSecond,
-- abandonAfterSeconds, pace, stock, opensAt, seed, challengeMaxNumber, inviteOnly, passKeys, held, revokedTotal,
-- deletedAt, passJwksUri, webhookUrl, webhookSecret, identity, auditBacklog, returnHosts}, or {} when unknown.
-- Optional settings, the pace (before there is history), the stock (none set) and the seed (not opened yet, or no
-- opensAt) are false when absent.
local s = redis.call('HMGET', KEYS[1], 'maxActive', 'admitPerSecond', 'entryTtlSeconds', 'open',
  'maxPollsPerSecond', 'abandonAfterSeconds', 'opensAt', 'challengeMaxNumber',
  'inviteOnly', 'passKeys', 'deletedAt', 'passJwksUri', 'webhookUrl', 'webhookSecret', 'identity', 'returnHosts')
if not s[1] then
  return {}
end
local stats = redis.call('HMGET', KEYS[4], 'admittedTotal', 'pace', 'seed', 'revokedTotal')
return {s[1], s[2], s[3], s[4], redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]), stats[1] or '0', s[5],
        s[6], stats[2], redis.call('GET', KEYS[5]), s[7], stats[3], s[8], s[9],
        s[10], redis.call('SCARD', KEYS[6]), stats[4] or '0', s[11], s[12], s[13], s[14], s[15],
        redis.call('XLEN', KEYS[7]), s[16]}
