import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AccountService } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

const DAY_MS = 86_400_000;

/**
 * Counts authenticated requests per user and UTC day without a database write or a Redis call
 * per request: each request adds one to a counter in memory; every few seconds this process's
 * counts are added to a Redis hash shared by every replica in one round trip, the hash is
 * renamed (atomically, so no increment is lost) and its totals are added to PostgreSQL. What a
 * process counted since its last flush is lost only if it dies without its shutdown flush.
 */
@Injectable()
export class RequestCounter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RequestCounter.name);
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  /** Requests counted here and not yet handed to Redis, by day and user (no key to build per request). */
  private local = new Map<string, Map<string, number>>();
  private day = '';
  private dayEndsAt = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountService,
  ) {}

  private get pendingKey(): string {
    return redisKey(this.config, 'usage', 'pending');
  }

  onModuleInit(): void {
    // A flush that fails (Redis away mid-flush) keeps what it could and is tried again at the next tick.
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'Request counts not flushed'));
    }, this.config.usage.flushIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** In memory: counting never delays or fails a request. */
  count(userId: string): void {
    this.add(this.today(), userId, 1);
  }

  private add(day: string, userId: string, requests: number): void {
    let users = this.local.get(day);
    if (users === undefined) this.local.set(day, (users = new Map<string, number>()));
    users.set(userId, (users.get(userId) ?? 0) + requests);
  }

  /** The UTC day (`YYYY-MM-DD`), worked out again only once it has ended. */
  private today(): string {
    const now = Date.now();
    if (now >= this.dayEndsAt) {
      this.day = new Date(now).toISOString().slice(0, 10);
      this.dayEndsAt = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    }
    return this.day;
  }

  /** Moves pending counts to PostgreSQL; safe to call concurrently and from several replicas. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    await this.handOver();
    const batch = `${this.pendingKey}:${randomUUID()}`;
    try {
      await this.redis.rename(this.pendingKey, batch);
    } catch {
      return; // nothing pending (or Redis away): try again next time
    }
    const entries = await this.redis.hgetall(batch);
    const counts = Object.entries(entries).map(([field, value]) => {
      const [userId, day] = field.split('|');
      return { userId, day, requests: Number(value) };
    });
    try {
      const unsaved = await this.accounts.addRequests(counts);
      await this.redis.del(batch);
      if (unsaved.length > 0) {
        this.logger.warn(
          { unsaved: unsaved.slice(0, 20), count: unsaved.length },
          'Request counts dropped: no such user',
        );
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Request counts not saved; keeping them for the next flush');
      const restore = this.redis.multi();
      for (const c of counts) restore.hincrby(this.pendingKey, `${c.userId}|${c.day}`, c.requests);
      await restore.del(batch).exec();
    }
  }

  /** Adds this process's counts to the shared hash; with Redis away they stay here for the next flush. */
  private async handOver(): Promise<void> {
    if (this.local.size === 0) return;
    const counts = this.local;
    this.local = new Map();
    const add = this.redis.multi();
    for (const [day, users] of counts)
      for (const [userId, requests] of users) add.hincrby(this.pendingKey, `${userId}|${day}`, requests);
    try {
      await add.exec();
    } catch {
      for (const [day, users] of counts) for (const [userId, requests] of users) this.add(day, userId, requests);
    }
  }
}
