import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import type { ApiKeyEntity } from '@docconv/db';
import { fastFailRedisOptions, REDIS, redisKey } from '@docconv/redis';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a looked-up key is served from memory without asking PostgreSQL again. Changes are
 * announced and drop the key at once; the TTL only bounds what a lost announcement could cost.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
/** Keys kept at most; past it the oldest entry goes (a busy replica sees far fewer keys in 5 s). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;
/** How long an announcement waits for every listening process to say it dropped the key. */
const ACKNOWLEDGE_WITHIN_MS = 2_000;

interface Entry {
  key: ApiKeyEntity;
  expiresAt: number;
}

/**
 * Active API keys by the SHA-256 of their secret, kept for a few seconds so that an authenticated
 * request does not wait for PostgreSQL. Only found keys are kept (an unknown secret always asks
 * the database, so a new key works at once).
 *
 * Every change to a key (rotation, deactivation, new scopes or limits) is announced on a Redis
 * channel once committed, and every API process drops the key as the message arrives and says so
 * (a list the announcement names). The change's request answers only once every process that
 * received the message has said so, so the very next request, through any process, finds the key
 * gone. Two rules keep a stale key from coming back:
 * - a lookup that started before an announcement arrived does not store what it read (the
 *   database may have answered before the change committed): the cache's generation, bumped by
 *   every announcement, must be unchanged between the start of the lookup and the store;
 * - nothing is served or stored while the subscription is not live (Redis away, reconnecting):
 *   announcements could be missed, so every lookup goes to PostgreSQL until the subscription is
 *   back, and the cache starts empty then.
 *
 * Without a Redis connection (the admin CLI) nothing is cached and nothing is announced.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ApiKeyCache.name);
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;
  private subscriber?: Redis;
  private lastWarning = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  private get channel(): string {
    return redisKey(this.config, 'api-keys', 'changed');
  }

  onModuleInit(): void {
    if (!this.redis) return;
    // A connection of its own: a subscribed connection can send nothing else. Subscribed again
    // by hand after each reconnection, so that "listening" means the server has confirmed it.
    const subscriber = new Redis(this.config.redis.url, { ...fastFailRedisOptions(), autoResubscribe: false });
    subscriber.on('error', () => undefined);
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(
        () => this.listen(true),
        () => subscriber.disconnect(true), // try again from a fresh connection
      );
    });
    subscriber.on('close', () => this.listen(false));
    subscriber.on('message', (_channel: string, message: string) => this.dropAnnounced(message));
    this.subscriber = subscriber;
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
    this.listen(false);
  }

  /**
   * The active key whose secret's SHA-256 is `id` (in base64): from memory when it was found in
   * the last few seconds and has not changed since, else from `load` (PostgreSQL), remembered when
   * allowed.
   */
  async find(id: string, load: () => Promise<ApiKeyEntity | null>): Promise<ApiKeyEntity | null> {
    if (this.listening) {
      const entry = this.entries.get(id);
      if (entry && entry.expiresAt > Date.now()) return entry.key;
      if (entry) this.entries.delete(id);
    }
    const generation = this.generation;
    const key = await load();
    if (key && this.listening && generation === this.generation) this.remember(id, key);
    return key;
  }

  /**
   * Drops the key here and tells every other API process to drop it. Call after the change has
   * committed. If the announcement cannot be sent, other processes may serve the old key until
   * their entry expires (at most API_KEY_CACHE_TTL_MS); a process that lost Redis entirely
   * serves nothing from memory.
   */
  async changed(keyId: string): Promise<void> {
    this.drop(keyId);
    if (!this.redis) return;
    const acknowledgements = redisKey(this.config, 'api-keys', 'dropped', randomUUID());
    try {
      const receivers = await this.redis.publish(this.channel, `${keyId} ${acknowledgements}`);
      const deadline = Date.now() + ACKNOWLEDGE_WITHIN_MS;
      for (let pause = 1; (await this.redis.llen(acknowledgements)) < receivers; pause = Math.min(2 * pause, 50)) {
        if (Date.now() >= deadline) {
          this.logger.warn(
            { keyId, receivers },
            'API key change not acknowledged by every replica in time; they expire it',
          );
          break;
        }
        await sleep(pause);
      }
      await this.redis.del(acknowledgements);
    } catch (error) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn({ err: error, keyId }, 'API key change not announced (Redis away); other replicas expire it');
      }
    }
  }

  /** An announcement (`<key id> <acknowledgement list>`): the key is dropped, then that is said. */
  private dropAnnounced(message: string): void {
    const [keyId, acknowledgements] = message.split(' ');
    this.drop(keyId);
    if (!acknowledgements || !this.redis) return;
    this.redis
      .multi()
      .rpush(acknowledgements, String(process.pid))
      .pexpire(acknowledgements, 2 * ACKNOWLEDGE_WITHIN_MS)
      .exec()
      .catch(() => undefined); // the announcer stops waiting at its deadline
  }

  private remember(id: string, key: ApiKeyEntity): void {
    if (this.entries.size >= API_KEY_CACHE_MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(id, { key, expiresAt: Date.now() + API_KEY_CACHE_TTL_MS });
  }

  private drop(keyId: string): void {
    this.generation++;
    for (const [id, entry] of this.entries) if (entry.key.id === keyId) this.entries.delete(id);
  }

  /** Starting or losing the subscription empties the cache, and lookups in flight do not store. */
  private listen(live: boolean): void {
    this.listening = live;
    this.generation++;
    this.entries.clear();
  }
}
