-- GET <path>?userId=<prefix>-<thread>-<n> from a client address of its own per request (forwarded.lua), keeping
-- each challenge answered in <dir>/challenges-<thread>.txt, one JSON per line, for solve.py.
-- args: prefix dir
local counter = 0
local prefix = "u"
local out = nil
function init(args)
  prefix = (args[1] or "u") .. "-" .. id .. "-"
  out = io.open((args[2] or ".") .. "/challenges-" .. id .. ".txt", "a")
end

function request()
  counter = counter + 1
  return wrk.format("GET", wrk.path .. "?userId=" .. prefix .. counter,
    { ["X-Forwarded-For"] = forwarded_for(counter * 2 + id) })
end

function response(status, headers, body)
  if status == 200 then
    out:write(body, "\n")
  end
end
