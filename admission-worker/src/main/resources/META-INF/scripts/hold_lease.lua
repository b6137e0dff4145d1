-- Takes or renews a lease, so that one worker at a time does a product's singular job.
-- KEYS[1] audit-lease:{p} (the audit relay's) or reservation-lease:{p} (the reservation sweeper's), the lease
-- ARGV[1] the worker's id   ARGV[2] lease time in ms
-- Returns 1 when the caller holds the lease for ARGV[2] ms from now, 0 when another worker does.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
