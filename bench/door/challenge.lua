-- GET <path> as a visitor does (no user id: the challenge pays for one enter of whoever solves it) from a client
-- address of its own per request (forwarded.lua), keeping each challenge answered in <dir>/challenges-<thread>.txt,
-- one JSON per line, for solve.py.
-- args: prefix (unused: kept so every door script takes the same arguments) dir
local counter = 0
local out = nil
function init(args)
  out = io.open((args[2] or ".") .. "/challenges-" .. id .. ".txt", "a")
end

function request()
  counter = counter + 1
  return wrk.format("GET", wrk.path, { ["X-Forwarded-For"] = forwarded_for(counter * 2 + id) })
end

function response(status, headers, body)
  if status == 200 then
    out:write(body, "\n")
  end
end
