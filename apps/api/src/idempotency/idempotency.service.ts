import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError, type ErrorCode, type FieldError } from '@docconv/contracts';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';

/** How long a first response is kept for replay. */
const TTL_SECONDS = 24 * 3600;
/** How long a repeat waits for the first request (still running) to finish. */
const WAIT_MS = 120_000;
const POLL_MS = 100;

/**
 * Outcomes that depend on the moment, not on the request (a balance topped up since, a quota
 * that resets, a fault of ours): not kept, so a repeat with the same key runs again.
 */
const PASSING = new Set<ErrorCode>([
  'insufficient_credits',
  'daily_quota_exceeded',
  'rate_limited',
  'service_unavailable',
  'internal_error',
]);

/** A valid key: 1 to 255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface StoredOutcome {
  /** HTTP status of the first response. */
  status: number;
  /** Its body, for a success. */
  body?: unknown;
  /** The domain error it ended with, for a 4xx the client caused (replayed as it was). */
  error?: { code: ErrorCode; message: string; extensions?: Record<string, unknown>; errors?: FieldError[] };
}

type SlotRecord = { state: 'running'; fingerprint: string } | ({ state: 'done'; fingerprint: string } & StoredOutcome);

/**
 * `Idempotency-Key` (per user, whichever credential sends it): the first request with a key runs and its outcome — the
 * response, or the error a client caused — is kept for 24 hours in Redis; a repeat with the
 * same request gets that outcome again without running; the same key with a different request
 * is 422. A repeat that arrives while the first still runs waits for it, so concurrent repeats
 * run once. A failure of ours (5xx) is not kept: the client may try again with the same key.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks the header's value; undefined when the request has none. */
  keyOf(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    const value = Array.isArray(header) ? header[0] : header;
    if (!KEY.test(value)) {
      throw new DomainError(
        'validation_failed',
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID is a good choice).',
        { errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }] },
      );
    }
    return value;
  }

  /** Digest of what makes two requests the same (method, path and a description of the body). */
  fingerprint(...parts: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  /**
   * Runs `work` once per (owner, key): returns `{ outcome, replayed }` where a replayed outcome
   * is the stored one. Throws 422 when the key was used for a different request.
   */
  async run(
    owner: string,
    key: string,
    fingerprint: string,
    status: number,
    work: () => Promise<unknown>,
  ): Promise<{ outcome: StoredOutcome; replayed: boolean }> {
    const slot = redisKey(this.config, 'idempotency', owner, createHash('sha256').update(key).digest('hex'));
    const claimed = await this.redis.set(
      slot,
      JSON.stringify({ state: 'running', fingerprint } satisfies SlotRecord),
      'EX',
      TTL_SECONDS,
      'NX',
    );
    if (claimed !== 'OK') return { outcome: await this.replay(slot, fingerprint), replayed: true };

    try {
      const body = await work();
      const outcome: StoredOutcome = { status, body };
      await this.store(slot, fingerprint, outcome);
      return { outcome, replayed: false };
    } catch (error) {
      if (error instanceof DomainError && !PASSING.has(error.code)) {
        await this.store(slot, fingerprint, {
          status: 0, // the problem filter decides the status from the code
          error: { code: error.code, message: error.message, extensions: error.extensions, errors: error.errors },
        });
      } else {
        await this.redis.del(slot);
      }
      throw error;
    }
  }

  /** The stored outcome as a result, or its error thrown again. */
  static settle(outcome: StoredOutcome): unknown {
    if (outcome.error) {
      const { code, message, extensions, errors } = outcome.error;
      throw new DomainError(code, message, { extensions, errors });
    }
    return outcome.body;
  }

  private async store(slot: string, fingerprint: string, outcome: StoredOutcome): Promise<void> {
    await this.redis.set(
      slot,
      JSON.stringify({ state: 'done', fingerprint, ...outcome } satisfies SlotRecord),
      'EX',
      TTL_SECONDS,
    );
  }

  private async replay(slot: string, fingerprint: string): Promise<StoredOutcome> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const raw = await this.redis.get(slot);
      if (raw === null) {
        throw new DomainError(
          'service_unavailable',
          'The first request with this Idempotency-Key failed on our side; send it again.',
          { retryAfterSeconds: 1 },
        );
      }
      const record = JSON.parse(raw) as SlotRecord;
      if (record.fingerprint !== fingerprint) {
        throw new DomainError(
          'idempotency_conflict',
          'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        );
      }
      if (record.state === 'done') return record;
      if (Date.now() > deadline) {
        throw new DomainError(
          'service_unavailable',
          'The first request with this Idempotency-Key is still running; try again shortly.',
          { retryAfterSeconds: 5 },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
