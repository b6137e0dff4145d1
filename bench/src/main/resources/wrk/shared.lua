-- Appended to get.lua and post.lua (see Load): numbers wrk's threads, and prints wrk's own totals and latency
-- percentiles as one JSON line the benchmark parses.

-- Each thread gets its own id, which the request scripts read as the global "id" in init.
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function done(summary, latency, requests)
  io.write(string.format('WRKJSON {"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"connectErrors":%d,'
    .. '"readErrors":%d,"writeErrors":%d,"timeouts":%d,"meanUs":%.1f,"p50Us":%d,"p90Us":%d,"p99Us":%d,'
    .. '"p999Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.status, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
