-- Shared by the door's scripts: each request comes "from" an address of its own, named by X-Forwarded-For through
-- the stack's trusted proxy (127.0.0.1): the k-th address of 198.18.0.0/15, the range set aside for benchmarks
-- (RFC 2544), 131,072 clients in turn, so that the limits per client are run as a crowd runs them.
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function forwarded_for(k)
  k = k % 131072
  return "198." .. (18 + math.floor(k / 65536)) .. "." .. (math.floor(k / 256) % 256) .. "." .. (k % 256)
end
