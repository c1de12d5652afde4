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
 * Refuses when the estimate plus this request would pass `limit`, else counts up to ARGV[3]
 * requests at once (a slice, see SLICE_SHARE) as far as the limit allows; both in one script, so
 * every API replica shares the count atomically. Time comes from Redis, so replicas' clocks do not
 * matter. Returns {requests granted (0: refused), remaining after them, ms until reset}.
 */
const SCRIPT = `
local base, limit, window, want = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local index = math.floor(now / window)
local current = base .. ':' .. index
local elapsed = now - index * window
local count = tonumber(redis.call('GET', current) or '0')
local previous = tonumber(redis.call('GET', base .. ':' .. (index - 1)) or '0')
local estimate = previous * (window - elapsed) / window + count
if estimate + 1 <= limit then
  local granted = math.min(want, math.floor(limit - estimate))
  redis.call('INCRBY', current, granted)
  redis.call('PEXPIRE', current, 2 * window)
  return {granted, math.floor(limit - estimate - granted), window - elapsed}
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
  [COMMAND](key: string, limit: number, windowMs: number, want: number): Promise<[number, number, number]>;
};

/**
 * A subject allowed `limit` requests per window takes them from the shared count in slices of a
 * hundredth of it (one request at a time under 200): a key polled thousands of times a minute
 * costs Redis one call per slice, not one per request. A slice lives until its window ends, so a
 * replica leaves at most a slice of a window's allowance unused.
 */
const SLICE_SHARE = 100;

/** Slices kept before those whose window has ended are swept out. */
const SWEEP_ABOVE = 10_000;

/** Requests a replica took from the shared count and has not used yet. */
interface Slice {
  limit: number;
  granted: number;
  used: number;
  /** What the shared count had left once the slice was taken. */
  remainingAfter: number;
  /** When the slice's window ends, on this process's clock (ms). */
  endsAt: number;
}

@Injectable()
export class SlidingWindowLimiter {
  private readonly logger = new Logger(SlidingWindowLimiter.name);
  private lastWarning = 0;
  private readonly redis: LimitedRedis;
  private readonly slices = new Map<string, Slice>();

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SCRIPT });
    this.redis = redis as LimitedRedis;
  }

  /**
   * Counts one request against `limit` per `windowSeconds` for `subject`: from this replica's
   * slice while it lasts, else from the shared count. Returns null when Redis cannot be reached:
   * the caller lets the request through (readiness reports Redis down).
   */
  async hit(subject: string, limit: number, windowSeconds: number): Promise<LimitDecision | null> {
    const slice = this.slices.get(subject);
    const now = Date.now();
    if (slice && slice.limit === limit && slice.used < slice.granted && now < slice.endsAt) {
      slice.used++;
      return allowed(limit, slice.remainingAfter + slice.granted - slice.used, slice.endsAt - now);
    }
    const want = Math.max(1, Math.floor(limit / SLICE_SHARE));
    try {
      const [granted, remaining, resetMs] = await this.redis[COMMAND](
        redisKey(this.config, 'ratelimit', subject),
        limit,
        windowSeconds * 1000,
        want,
      );
      if (granted === 0)
        return { allowed: false, limit, remaining, resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
      if (want === 1) return allowed(limit, remaining, resetMs);
      const taken = this.keep(subject, { limit, granted, used: 1, remainingAfter: remaining, endsAt: now + resetMs });
      return allowed(limit, taken.remainingAfter + taken.granted - taken.used, resetMs);
    } catch (error) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn({ err: error }, 'Rate limiter cannot reach Redis; letting requests through');
      }
      return null;
    }
  }

  /**
   * Keeps a slice just taken. Requests that found the last one used up at the same time each took
   * one: what is left of the one kept before, taken in the same window, is added to it.
   */
  private keep(subject: string, slice: Slice): Slice {
    const now = Date.now();
    const before = this.slices.get(subject);
    if (before && before.limit === slice.limit && now < before.endsAt) slice.granted += before.granted - before.used;
    else if (this.slices.size >= SWEEP_ABOVE)
      for (const [key, kept] of this.slices) if (kept.endsAt <= now) this.slices.delete(key);
    this.slices.set(subject, slice);
    return slice;
  }
}

/** An allowed request's decision: until the window ends, or (none left) until one more is allowed. */
function allowed(limit: number, remaining: number, resetMs: number): LimitDecision {
  const resetSeconds = remaining > 0 ? Math.ceil(resetMs / 1000) : Math.max(1, Math.ceil(resetMs / 1000));
  return { allowed: true, limit, remaining, resetSeconds };
}
