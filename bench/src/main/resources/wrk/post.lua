-- POST {"userId": "<prefix>-<thread>-<n>"}: a new user per request, so every accepted enter is a new place.
-- args: prefix
local counter = 0
local prefix = "u"
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
function init(args)
  prefix = (args[1] or "u") .. "-" .. id .. "-"
end

function request()
  counter = counter + 1
  return wrk.format("POST", nil, headers, '{"userId":"' .. prefix .. counter .. '"}')
end
