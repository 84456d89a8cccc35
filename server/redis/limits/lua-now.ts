/** Lua: `redisNow()`, Redis's own clock in ms, one clock for every instance. */
const LUA_REDIS_NOW_FUNCTION = `local function redisNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/** Lua that sets `now` (ms) from Redis's own clock (scripts that take no test clock). */
export const LUA_REDIS_TIME = `${LUA_REDIS_NOW_FUNCTION}
local now = redisNow()`;

/**
 * Lua that sets `now` (ms) from ARGV[4], or from Redis's own clock when ARGV[4] is empty, so every
 * instance decides on one clock. Shared by the limiter scripts.
 */
export const LUA_NOW = `${LUA_REDIS_NOW_FUNCTION}
local now
if ARGV[4] ~= '' then
  now = tonumber(ARGV[4])
else
  now = redisNow()
end`;
