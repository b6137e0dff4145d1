-- The Redis process a script runs on, put by QueueScripts at the top of every script after the clock. A line is
-- stamped with it (stats:{p} run) when it is appended to or restored; a script that finds another process's stamp
-- runs on a Redis that restarted or failed over since, and may have lost its last writes (see append_waiting.lua).
-- One INFO per call: ask once per script, never per user. Reads no key and writes nothing.
local function run_id()
  return string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
end
