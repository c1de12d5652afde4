import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request will be allowed when refused; until the current window ends when allowed. */
  resetSeconds: number;
}

/**
 * A sliding-window counter: two fixed windows per subject (`<key>:<window number>`), the
 * previous one weighted by how much of it still overlaps the sliding window. O(1) in time and
 * memory whatever the limit (the sliding log it replaces kept one sorted-set entry per request).
 * Refuses when the estimate plus this request would pass `limit`, else counts it; both in one
 * script, so every API replica shares the count atomically. Time comes from Redis, so replicas'
 * clocks do not matter. Returns {allowed, remaining, ms until reset}.
 */
const SCRIPT = `
local base, limit, window = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local index = math.floor(now / window)
local current = base .. ':' .. index
local elapsed = now - index * window
local count = tonumber(redis.call('GET', current) or '0')
local previous = tonumber(redis.call('GET', base .. ':' .. (index - 1)) or '0')
local estimate = previous * (window - elapsed) / window + count
if estimate + 1 <= limit then
  redis.call('INCR', current)
  redis.call('PEXPIRE', current, 2 * window)
  return {1, math.floor(limit - estimate - 1), window - elapsed}
end
-- Refused: wait until the previous window's weight has shrunk enough for one more request,
-- or, when this window alone is full, into the next window until this one's weight has.
local wait
if count + 1 <= limit then
  wait = (window - elapsed) - (limit - 1 - count) * window / previous
else
  wait = (window - elapsed) + window - (limit - 1) * window / count
end
return {0, 0, math.ceil(wait)}
`;

/** The script's name on the connection: ioredis loads it once and calls it with EVALSHA. */
const COMMAND = 'docconvRateLimit';

type LimitedRedis = Redis & {
  [COMMAND](key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
};

@Injectable()
export class SlidingWindowLimiter {
  private readonly logger = new Logger(SlidingWindowLimiter.name);
  private lastWarning = 0;
  private readonly redis: LimitedRedis;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SCRIPT });
    this.redis = redis as LimitedRedis;
  }

  /**
   * Counts one request against `limit` per `windowSeconds` for `subject`. Returns null when
   * Redis cannot be reached: the caller lets the request through (readiness reports Redis down).
   */
  async hit(subject: string, limit: number, windowSeconds: number): Promise<LimitDecision | null> {
    try {
      const [allowed, remaining, resetMs] = await this.redis[COMMAND](
        redisKey(this.config, 'ratelimit', subject),
        limit,
        windowSeconds * 1000,
      );
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
