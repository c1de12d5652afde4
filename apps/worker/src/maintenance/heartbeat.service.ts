import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { WORKER_HEARTBEAT_KEY } from '@docconv/contracts';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { JobHandler } from '../handlers/job-handler.decorator';

const INTERVAL_MS = 5_000;
/** Heartbeats older than this belong to workers that are gone. */
const FORGET_AFTER_MS = 10 * 60_000;

/**
 * Tells the API this worker is alive: every few seconds it records the time in a sorted set
 * (member = worker id), which readiness reads. The scheduled prune removes long-dead members.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HeartbeatService.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get key(): string {
    return redisKey(this.config, WORKER_HEARTBEAT_KEY);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.zrem(this.key, this.workerId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    try {
      await this.redis.zadd(this.key, Date.now(), this.workerId);
    } catch (error) {
      this.logger.warn({ err: error }, 'Heartbeat not recorded; Redis is unreachable');
    }
  }

  @JobHandler('maintenance.prune-heartbeats')
  async prune(): Promise<{ removed: number }> {
    const removed = await this.redis.zremrangebyscore(this.key, '-inf', Date.now() - FORGET_AFTER_MS);
    return { removed };
  }
}
