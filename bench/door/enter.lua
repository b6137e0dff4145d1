-- POST {}, a visitor's first enter, from a client address of its own per request (forwarded.lua).
-- args: prefix (unused: kept so every door script takes the same arguments)
local counter = 0

function request()
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = forwarded_for(counter * 2 + id) }
  return wrk.format("POST", nil, headers, "{}")
end
