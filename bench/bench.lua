-- bench.lua: the benchmarks' Lua workload, call-heavy and allocation-heavy.
-- usage: lua bench.lua [SCALE]   (SCALE 1: about a second uninstrumented)
-- Prints a few checksums that do not depend on timing or addresses, so the
-- traced and untraced runs' outputs can be compared byte for byte.
local scale = tonumber(arg and arg[1]) or 1

-- calls: plain recursion
local function fib(n)
	if n < 2 then return n end
	return fib(n - 1) + fib(n - 2)
end

-- allocation: tables of small tables, strings built and hashed
local function build(n)
	local t = {}
	for i = 1, n do
		t[i] = { id = i, name = "item" .. i, tags = { i % 7, i % 11 } }
	end
	return t
end

local function sum(t)
	local s = 0
	for _, v in ipairs(t) do
		s = s + v.id * v.tags[1] + #v.name
	end
	return s
end

local function words(n)
	local parts = {}
	for i = 1, n do
		parts[#parts + 1] = string.format("%x", i * 2654435761 % 4294967296)
	end
	local s = table.concat(parts, " ")
	local count = {}
	for w in s:gmatch("%x%x") do
		count[w] = (count[w] or 0) + 1
	end
	local keys = {}
	for k in pairs(count) do keys[#keys + 1] = k end
	table.sort(keys, function(a, b) return count[a] > count[b] or count[a] == count[b] and a < b end)
	return #s, keys[1], count[keys[1]]
end

local rounds = math.max(1, math.floor(3 * scale))
local f, s, len, top, n = 0, 0, 0, "", 0
for _ = 1, rounds do
	f = f + fib(24)
	s = s + sum(build(40000))
	len, top, n = words(30000)
end
print(string.format("fib %d sum %d words %d top %s %d", f, s, len, top, n))
