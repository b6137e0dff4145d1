-- GET <base><token>, cycling through a file of tokens, each thread from its own starting point.
-- args: tokens file, base path
local tokens = {}
local i = 0
local base = "/"
local headers = { ["Accept"] = "application/json" }
function init(args)
  for line in io.lines(args[1]) do
    tokens[#tokens + 1] = line
  end
  base = args[2]
  i = (id * 7919) % #tokens
end

function request()
  i = i % #tokens + 1
  return wrk.format("GET", base .. tokens[i], headers)
end
