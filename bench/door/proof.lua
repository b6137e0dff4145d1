-- POST the bodies solve.py wrote to <dir>/proofs-<thread>.txt, one enter with a solved proof each, from a client
-- address of its own per request (forwarded.lua): round r of n takes the r-th n-th of the file, so that no round
-- sends a proof another sent. Past its share it starts over: those enters are refused (a proof enters once) and
-- counted as non-2xx.
-- args: dir round rounds
local bodies = {}
local counter = 0
function init(args)
  local all = {}
  for line in io.lines((args[1] or ".") .. "/proofs-" .. id .. ".txt") do
    all[#all + 1] = line
  end
  local round, rounds = tonumber(args[2] or "1"), tonumber(args[3] or "1")
  local share = math.floor(#all / rounds)
  for i = (round - 1) * share + 1, round * share do
    bodies[#bodies + 1] = all[i]
  end
end

function request()
  counter = counter + 1
  local body = bodies[(counter - 1) % #bodies + 1]
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = forwarded_for(counter * 2 + id) }, body)
end
