-- Appends tokens to a product's line in the order given (the log's order), idempotently.
-- KEYS[1] waiting:{p}   KEYS[2] members:{p}   KEYS[3] stats:{p}
-- ARGV    tokens, in log order
-- Returns the number of tokens added.
--
-- A token already known to members:{p} (waiting, admitted, left, used or expired) is skipped, so a redelivered
-- batch, a re-entry or a late event of a token that left while pending changes nothing. The score is the
-- product's own sequence, so ties and clocks never reorder anyone.
local seq = tonumber(redis.call('HGET', KEYS[3], 'seq') or '0')
local added = 0
for i = 1, #ARGV do
  local token = ARGV[i]
  if redis.call('HSETNX', KEYS[2], token, seq + 1) == 1 then
    seq = seq + 1
    redis.call('ZADD', KEYS[1], seq, token)
    added = added + 1
  end
end
if added > 0 then
  redis.call('HSET', KEYS[3], 'seq', seq)
  redis.call('HINCRBY', KEYS[3], 'enteredTotal', added)
end
return added
