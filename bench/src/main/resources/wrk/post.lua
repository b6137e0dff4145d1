-- POST {}: a visitor's first enter (identity "visitor", the default), so every accepted enter is a new place whose
-- user id the server made. Given a prefix (a target that takes only named users: the seed design), POST
-- {"userId": "<prefix>-<thread>-<n>"} instead: a new user per request.
-- args: [prefix]
local counter = 0
local prefix = nil
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
-- built at the first request, not when the script loads: wrk.format takes the Host header from wrk.headers, which
-- wrk sets only after loading the script, and a request without Host is answered 400
local visitor = nil
function init(args)
  if args[1] then
    prefix = args[1] .. "-" .. id .. "-"
  end
end

function request()
  if not prefix then
    visitor = visitor or wrk.format("POST", nil, headers, "{}")
    return visitor
  end
  counter = counter + 1
  return wrk.format("POST", nil, headers, '{"userId":"' .. prefix .. counter .. '"}')
end
