-- POST {"userId": "<prefix>-<thread>-<n>"}: a new user per request, so every accepted enter is a new place.
-- args: prefix
local counter = 0
local prefix = "u"
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  prefix = (args[1] or "u") .. "-" .. id .. "-"
end

function request()
  counter = counter + 1
  return wrk.format("POST", nil, headers, '{"userId":"' .. prefix .. counter .. '"}')
end
