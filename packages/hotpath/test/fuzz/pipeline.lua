-- wrk script: N requests per write (HTTP pipelining), for the wire engine's
-- one-write-per-read path. Usage: wrk -s pipeline.lua URL -- 10
local depth = 10
init = function(args)
  depth = tonumber(args[1]) or 10
  local r = {}
  for i = 1, depth do r[i] = wrk.format(nil, wrk.path) end
  req = table.concat(r)
end
request = function() return req end
