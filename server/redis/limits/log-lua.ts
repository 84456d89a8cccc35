/**
 * Lua functions for exact sliding logs kept as sorted sets (score = admission time in ms), shared by
 * every script that counts one: the per-key limiter (sliding-log.ts) and the game provider's budget
 * (server/redis/game-cache.ts). The same rules as ../sliding-log.ts in process.
 *
 * `log_wait(key, limit, window, now)` drops the entries that left the window (`t <= now − window`)
 * and answers the count left and the ms until the log holds fewer than `limit`: 0 when it does now;
 * else when the (count − limit)-th oldest entry leaves (the oldest, unless the limit was lowered);
 * a whole window when the limit is 0.
 * `log_add(key, member, window, now)` records an admission.
 */
export const LUA_LOG = `local function log_wait(key, limit, window, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count < limit then return count, 0 end
  if limit <= 0 then return count, window end
  local entry = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
  return count, tonumber(entry[2]) + window - now
end
local function log_add(key, member, window, now)
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
end`;
