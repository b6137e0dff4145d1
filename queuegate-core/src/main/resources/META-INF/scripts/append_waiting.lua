-- Appends tokens to a product's line in the order given (the log's order), idempotently.
-- KEYS[1] waiting:{p}   KEYS[2] members:{p}   KEYS[3] stats:{p}   KEYS[4] audit:{p}
-- ARGV[1] now in epoch ms, or 0 to read Redis TIME   ARGV[2..] tokens, in log order
-- Returns the number of tokens added.
--
-- A token already known to members:{p} (waiting, admitted, left, used or expired) is skipped, so a redelivered
-- batch, a re-entry or a late event of a token that left while pending changes nothing. The score is the
-- product's own sequence, so ties and clocks never reorder anyone.
local seq = tonumber(redis.call('HGET', KEYS[3], 'seq') or '0')
local added = {}
for i = 2, #ARGV do
  local token = ARGV[i]
  if redis.call('HSETNX', KEYS[2], token, seq + 1) == 1 then
    seq = seq + 1
    redis.call('ZADD', KEYS[1], seq, token)
    added[#added + 1] = token
  end
end
if #added > 0 then
  redis.call('HSET', KEYS[3], 'seq', seq)
  redis.call('HINCRBY', KEYS[3], 'enteredTotal', #added)
  local now = tonumber(ARGV[1])
  if now == 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', 100000, '*', 'type', 'ENTERED', 'at', now,
    'tokens', table.concat(added, ','))
end
return #added
