-- Takes a token out of the line or frees its entry slot (the user left).
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] members:{p}   KEYS[4] stats:{p}   KEYS[5] audit:{p}
-- ARGV[1] token   ARGV[2] now in epoch ms, or 0 to read Redis TIME
-- Returns 1 when the token held a place, 0 otherwise.
--
-- A token that leaves before its enter event was applied is recorded in members:{p}, so the late event is
-- skipped instead of putting the user back in line.
local token = ARGV[1]
local removed = redis.call('ZREM', KEYS[1], token) + redis.call('ZREM', KEYS[2], token)
redis.call('HSETNX', KEYS[3], token, 0)
if removed > 0 then
  redis.call('HINCRBY', KEYS[4], 'leftTotal', 1)
  local now = tonumber(ARGV[2])
  if now == 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', 100000, '*', 'type', 'LEFT', 'at', now, 'tokens', token)
end
return removed
