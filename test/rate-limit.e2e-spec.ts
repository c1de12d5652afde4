import { loadConfig } from '@docconv/config';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SlidingWindowLimiter } from '../apps/api/src/rate-limit/sliding-window.limiter';

/**
 * The limiter against the real Redis, at the joint of its two fixed windows. Windows are aligned
 * to Redis's clock, so each test reads that clock before and after its calls and checks that the
 * answers lie between what the limiter had to say at those two instants: exact, whatever the
 * machine's speed. A day-long window keeps the test well away from the window's own ends.
 */
describe('the sliding-window limiter on Redis', () => {
  const config = loadConfig(process.env);
  let redis: Redis;
  let limiter: SlidingWindowLimiter;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    limiter = new SlidingWindowLimiter(redis, config);
  });
  afterAll(() => redis.quit());

  /** Redis's clock in milliseconds. */
  async function redisNow(): Promise<number> {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  /**
   * A window (around a day) for which Redis's clock sits at least a minute from either end, the
   * window number, and a subject of its own.
   */
  async function freshWindow(): Promise<{ windowMs: number; index: number; subject: string; base: string }> {
    const now = await redisNow();
    for (let windowMs = 86_400_000; ; windowMs -= 3_600_000) {
      const elapsed = now % windowMs;
      if (elapsed > 60_000 && windowMs - elapsed > 60_000) {
        const subject = `test:${randomUUID()}`;
        return {
          windowMs,
          index: Math.floor(now / windowMs),
          subject,
          base: `${config.redis.prefix}:ratelimit:${subject}`,
        };
      }
    }
  }

  /** The previous window's share of the sliding window at `now`. */
  const weight = (now: number, windowMs: number) => (windowMs - (now % windowMs)) / windowMs;

  it('counts a fresh subject exactly: remaining falls to 0, then refusal with a wait', async () => {
    const { windowMs, subject } = await freshWindow();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const decision = await limiter.hit(subject, 5, windowMs / 1000);
      expect(decision?.allowed).toBe(true);
      remaining.push(decision!.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = await limiter.hit(subject, 5, windowMs / 1000);
    expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
    // This window alone is full: the wait runs past its end into the next one.
    const after = await redisNow();
    expect(refused!.resetSeconds).toBeGreaterThanOrEqual(Math.floor((windowMs - (after % windowMs)) / 1000));
  });

  it('weighs the previous window by its overlap: a burst at the end of one window and the start of the next stays within the limit', async () => {
    const { windowMs, index, subject, base } = await freshWindow();
    const limit = 10;
    // The previous window was used to the full limit.
    await redis.set(`${base}:${index - 1}`, String(limit), 'PX', 2 * windowMs);
    const before = await redisNow();
    let allowed = 0;
    for (let i = 0; i < limit; i++) if ((await limiter.hit(subject, limit, windowMs / 1000))?.allowed) allowed++;
    const after = await redisNow();
    // Allowed while limit·weight + count + 1 ≤ limit, the weight shrinking from `before` to `after`.
    const fewest = Math.floor(limit - limit * weight(before, windowMs));
    const most = Math.floor(limit - limit * weight(after, windowMs));
    expect(allowed).toBeGreaterThanOrEqual(fewest);
    expect(allowed).toBeLessThanOrEqual(most);
    expect(allowed).toBeLessThan(limit); // a fixed window would have allowed all ten again
  });

  it('reports what remains from the weighted estimate, and refuses without counting once it would pass the limit', async () => {
    const { windowMs, index, subject, base } = await freshWindow();
    const limit = 1_000_000;
    await redis.set(`${base}:${index - 1}`, '600000', 'PX', 2 * windowMs);
    await redis.set(`${base}:${index}`, '1000', 'PX', 2 * windowMs);
    const before = await redisNow();
    const decision = await limiter.hit(subject, limit, windowMs / 1000);
    const after = await redisNow();
    expect(decision?.allowed).toBe(true);
    const remainingAt = (now: number) => Math.floor(limit - (600_000 * weight(now, windowMs) + 1000) - 1);
    expect(decision!.remaining).toBeGreaterThanOrEqual(remainingAt(before));
    expect(decision!.remaining).toBeLessThanOrEqual(remainingAt(after));
    // The request took a slice of a hundredth of the limit (SLICE_SHARE).
    expect(Number(await redis.get(`${base}:${index}`))).toBe(1000 + limit / 100);

    // The previous window full and this one one short of the limit: refused and not counted by a
    // replica holding no slice; this window still has room for one, so the wait ends with it,
    // when the previous one no longer weighs.
    await redis.set(`${base}:${index - 1}`, String(limit), 'PX', 2 * windowMs);
    await redis.set(`${base}:${index}`, String(limit - 1), 'PX', 2 * windowMs);
    const refusedFrom = await redisNow();
    const refused = await new SlidingWindowLimiter(redis, config).hit(subject, limit, windowMs / 1000);
    const refusedBy = await redisNow();
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(Number(await redis.get(`${base}:${index}`))).toBe(limit - 1);
    const untilWindowEnd = (now: number) => Math.ceil((windowMs - (now % windowMs)) / 1000);
    expect(refused!.resetSeconds).toBeGreaterThanOrEqual(untilWindowEnd(refusedBy));
    expect(refused!.resetSeconds).toBeLessThanOrEqual(untilWindowEnd(refusedFrom));
  });

  it('keeps two counters per subject whatever the number of requests (no entry per request)', async () => {
    const { windowMs, subject, base } = await freshWindow();
    for (let i = 0; i < 50; i++) await limiter.hit(subject, 1_000, windowMs / 1000);
    const keys = await redis.keys(`${base}*`);
    expect(keys).toHaveLength(1);
    expect(await redis.type(keys[0])).toBe('string');
    expect(Number(await redis.get(keys[0]))).toBe(50);
  });

  it('takes a key allowed many requests from the shared count in slices of a hundredth of its limit', async () => {
    const { windowMs, subject, base } = await freshWindow();
    const remaining: number[] = [];
    for (let i = 0; i < 150; i++) remaining.push((await limiter.hit(subject, 10_000, windowMs / 1000))!.remaining);
    // Two slices of 100 taken; each request still sees what is left of the whole limit.
    const [key] = await redis.keys(`${base}*`);
    expect(Number(await redis.get(key))).toBe(200);
    expect(remaining).toEqual(Array.from({ length: 150 }, (_, i) => 10_000 - 1 - i));
  });

  it('shares one limit exactly between replicas taking slices, also when requests come at once', async () => {
    const { windowMs, subject } = await freshWindow();
    const replicas = [limiter, new SlidingWindowLimiter(redis, config)];
    // A limit of 300: slices of 3. Bursts of 8 requests at once on each replica, until both refuse.
    let allowed = 0;
    let refused = 0;
    while (refused < 16) {
      const burst = await Promise.all(
        replicas.flatMap((replica) => Array.from({ length: 8 }, () => replica.hit(subject, 300, windowMs / 1000))),
      );
      allowed += burst.filter((decision) => decision!.allowed).length;
      refused = burst.filter((decision) => !decision!.allowed).length;
    }
    expect(allowed).toBe(300);
  });

  it('answers null with Redis out of reach, so the caller lets the request through', async () => {
    const away = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
    });
    away.on('error', () => undefined);
    try {
      expect(await new SlidingWindowLimiter(away, config).hit('test:away', 5, 60)).toBeNull();
    } finally {
      away.disconnect();
    }
  });
});
