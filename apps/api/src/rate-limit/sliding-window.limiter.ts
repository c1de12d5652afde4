import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request will be allowed (0 when some are left). */
  resetSeconds: number;
}

/**
 * A sliding log per key, in one Lua script so every API replica shares it atomically: drop
 * entries older than the window, refuse when `limit` remain, else record this request.
 * Time comes from Redis, so replicas' clocks do not matter.
 */
const SCRIPT = `
local key, limit, window, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
  return {1, limit - count - 1, oldest + window - now}
end
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
return {0, 0, oldest + window - now}
`;

@Injectable()
export class SlidingWindowLimiter {
  private readonly logger = new Logger(SlidingWindowLimiter.name);
  private lastWarning = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Counts one request against `limit` per `windowSeconds` for `subject`. Returns null when
   * Redis cannot be reached: the caller lets the request through (readiness reports Redis down).
   */
  async hit(subject: string, limit: number, windowSeconds: number): Promise<LimitDecision | null> {
    try {
      const [allowed, remaining, resetMs] = (await this.redis.eval(
        SCRIPT,
        1,
        redisKey(this.config, 'ratelimit', subject),
        limit,
        windowSeconds * 1000,
        randomUUID(),
      )) as [number, number, number];
      return {
        allowed: allowed === 1,
        limit,
        remaining,
        resetSeconds:
          allowed === 1 && remaining > 0 ? Math.ceil(resetMs / 1000) : Math.max(1, Math.ceil(resetMs / 1000)),
      };
    } catch (error) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn({ err: error }, 'Rate limiter cannot reach Redis; letting requests through');
      }
      return null;
    }
  }
}
