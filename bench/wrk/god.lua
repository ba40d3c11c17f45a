-- wrk script for bench/run.sh: the god JSON contract (POST /rpc/DHash.<op>) over keep-alive HTTP,
-- random keys from a fixed space of random 12-byte keys (spread over a ring's positions), 16-byte values.
--   wrk -t2 -c16 -d15s -s bench/wrk/god.lua http://host:9192 -- Put|Get [keys]
-- Every wrk thread builds the same key table (fixed seed), so a Get run finds what a Put run wrote.
local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local op, body_of, keys, n

local function base64_of_12_random_bytes()
  local out = {}
  for _ = 1, 4 do -- 3 bytes → 4 characters, no padding for 12 bytes
    local v = math.random(0, 0xFFFFFF)
    for shift = 18, 0, -6 do
      local c = math.floor(v / 2 ^ shift) % 64 + 1
      out[#out + 1] = B64:sub(c, c)
    end
  end
  return table.concat(out)
end

function init(args)
  op = args[1] or "Put"
  n = tonumber(args[2] or "100000")
  if op ~= "Put" and op ~= "Get" then
    error("god.lua: the operation must be Put or Get, not " .. op)
  end
  math.randomseed(42)
  keys = {}
  for i = 1, n do
    keys[i] = base64_of_12_random_bytes()
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000) -- threads pick keys independently
  local value = "MDEyMzQ1Njc4OWFiY2RlZg==" -- "0123456789abcdef"
  if op == "Put" then
    body_of = function(k) return '{"Key":"' .. k .. '","Value":"' .. value .. '"}' end
  else
    body_of = function(k) return '{"Key":"' .. k .. '"}' end
  end
  wrk.method = "POST"
  wrk.path = "/rpc/DHash." .. op
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format(nil, nil, nil, body_of(keys[math.random(n)]))
end
