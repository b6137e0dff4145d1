-- The queue's one clock, put by QueueScripts at the top of every script (after its #!lua line), so no script
-- spells it out again. A script given now = 0 (ScriptTime.REDIS_TIME) reads Redis TIME; tests pass a fixed now.
-- Reads no key and writes nothing: it has no KEYS and no ARGV of its own.
local function time_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function now_ms(given)
  if given == 0 then
    return time_ms()
  end
  return given
end
