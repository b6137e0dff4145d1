-- POST {}: a visitor's first enter (identity "visitor", the default), so every accepted enter is a new place whose
-- user id the server made. Given a prefix (a target that takes only named users: the seed design), POST
-- {"userId": "<prefix>-<thread>-<n>"} instead: a new user per request.
-- args: [prefix]
local counter = 0
local prefix = nil
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
local visitor = wrk.format("POST", nil, headers, "{}")
function init(args)
  if args[1] then
    prefix = args[1] .. "-" .. id .. "-"
  end
end

function request()
  if not prefix then
    return visitor
  end
  counter = counter + 1
  return wrk.format("POST", nil, headers, '{"userId":"' .. prefix .. counter .. '"}')
end
