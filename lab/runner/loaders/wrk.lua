-- wrk script of the lab: one request shape (method, body, headers),
-- `depth` copies of it per write for pipelining, and a JSON summary on stdout.
-- args: depth, method, body file ('-' for none), then "name: value" headers.

local depth = 1
local req = nil

init = function(args)
  depth = tonumber(args[1]) or 1
  local method = args[2] or "GET"
  local body = nil
  if args[3] and args[3] ~= "-" then
    local f = assert(io.open(args[3], "rb"))
    body = f:read("*a")
    f:close()
  end
  local headers = {}
  for i = 4, #args do
    local name, value = string.match(args[i], "^([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
  local one = wrk.format(method, nil, headers, body)
  local all = {}
  for i = 1, depth do all[i] = one end
  req = table.concat(all)
end

request = function()
  return req
end

local percentiles = { 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.99 }

done = function(summary, latency, requests)
  local e = summary.errors
  local parts = {}
  for _, p in ipairs(percentiles) do
    parts[#parts + 1] = string.format('"%s":%d', tostring(p), latency:percentile(p))
  end
  io.write(string.format(
    'LABJSON {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"min_us":%d,"max_us":%d,"percentiles_us":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.max, table.concat(parts, ",")))
end
