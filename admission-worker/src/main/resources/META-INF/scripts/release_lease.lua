-- Gives back a lease the caller holds, so that the worker that should hold it now takes it at once.
-- KEYS[1] admission-lease:{p} or KEYS[1] audit-lease:{p}, the lease   ARGV[1] the worker's id
-- Returns 1 when the caller held the lease and it is free now, 0 when another worker holds it (left as it is).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
