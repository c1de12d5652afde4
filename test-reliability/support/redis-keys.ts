import { Redis } from 'ioredis';

/**
 * Deletes every key under `prefix:` — what a private stack left in a shared Redis (queued
 * jobs no worker took, heartbeats, rate-limit windows). The run's own prefix is cleared by
 * the global teardown; a private stack's is not under it.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
