/**
 * Lua that sets `now` (ms) from ARGV[4], or from Redis's own clock when ARGV[4] is empty, so every
 * instance decides on one clock. Shared by the limiter scripts.
 */
export const LUA_NOW = `local now
if ARGV[4] ~= '' then
  now = tonumber(ARGV[4])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;
