import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import type { RedisOptions as QueueRedisOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

/** Injection token of the shared command connection (not for blocking commands). */
export const REDIS = Symbol('REDIS');

/**
 * Options for connections that must fail fast while Redis is away (rate limiting, health,
 * counters): commands are not queued offline, so a request never hangs on a dead Redis.
 */
export function fastFailRedisOptions(): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
}

/** Connection options for BullMQ, whose blocking commands must wait as long as it takes. */
export function queueConnectionOptions(url: string): QueueRedisOptions {
  return {
    url,
    maxRetriesPerRequest: null,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
  };
}

/** How long a queue producer's caller waits for Redis before it gets an error. */
const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

/**
 * Connection options for queue producers (the API sending jobs, schedules, sweeps): commands
 * still wait offline while Redis is away and are sent once it is back, but the caller gets an
 * error after a short while instead of hanging, so a request that sends a job always answers.
 * Not for workers: their blocking commands must wait as long as it takes.
 */
export function queueProducerConnectionOptions(url: string): QueueRedisOptions {
  return { ...queueConnectionOptions(url), commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS };
}

/** Prefixes a key with the configured namespace so test runs and deployments never collide. */
export function redisKey(config: AppConfig, ...parts: string[]): string {
  return [config.redis.prefix, ...parts].join(':');
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const redis = new Redis(config.redis.url, fastFailRedisOptions());
        // Errors surface through commands and readiness; without a listener ioredis logs each retry.
        redis.on('error', () => undefined);
        return redis;
      },
    },
    RedisLifecycle,
  ],
  exports: [REDIS],
})
export class RedisModule {}
