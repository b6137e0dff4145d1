-- POST {"userId": "<prefix>-<thread>-<n>"} from a client address of its own per request (forwarded.lua).
-- args: prefix
local counter = 0
local prefix = "u"
function init(args)
  prefix = (args[1] or "u") .. "-" .. id .. "-"
end

function request()
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = forwarded_for(counter * 2 + id) }
  return wrk.format("POST", nil, headers, '{"userId":"' .. prefix .. counter .. '"}')
end
