#!lua
-- Reads which Redis holds the lines: the lines' epoch, and the run_id of the Redis process that serves it.
-- KEYS[1] queuegate:line-epoch (the deployment's keyspace)
-- ARGV[1] an id to give the lines when they have none, or '' to only read
-- Returns {epoch or '', 1 when the epoch was missing else 0, run_id}.
--
-- The epoch tells a Redis that lost everything (it is gone). The run_id tells a Redis that kept its data but may
-- have lost its last writes: every restart (AOF everysec killed, an RDB loaded) and every failover to a replica
-- serves the same epoch from a new process. One step, so that the two describe the same process; on a Redis
-- Cluster it is the process of the node that holds the epoch.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
local epoch = redis.call('GET', KEYS[1])
local missing = 0
if not epoch then
  missing = 1
  if ARGV[1] ~= '' then
    redis.call('SET', KEYS[1], ARGV[1], 'NX')
    epoch = redis.call('GET', KEYS[1])
  end
end
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
return {epoch or '', missing, run}
