import { Inject, Injectable, Logger } from '@nestjs/common';
import { normaliseEmail } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';

/**
 * How long this client must wait before its next login attempt for this email: the wait set by
 * its last failure for the pair, or, when the client has failed too often whatever the emails,
 * until its oldest failure in the window lapses. Milliseconds; 0 when it may try now.
 */
const CHECK = `
local pair, client, window, maxFailures = KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
local untilMs = tonumber(redis.call('HGET', pair, 'until') or '0')
if untilMs > now then wait = untilMs - now end
redis.call('ZREMRANGEBYSCORE', client, '-inf', now - window)
if redis.call('ZCARD', client) >= maxFailures then
  local oldest = tonumber(redis.call('ZRANGE', client, 0, 0, 'WITHSCORES')[2])
  wait = math.max(wait, oldest + window - now)
end
return wait
`;

/**
 * Records a failed attempt: past the free failures, each further failure of the pair sets a wait
 * that doubles from one second up to the longest; the client's failure log grows by one.
 */
const FAIL = `
local pair, client = KEYS[1], KEYS[2]
local free, maxDelay, window, member = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local failures = redis.call('HINCRBY', pair, 'failures', 1)
local delay = 0
if failures > free then
  delay = math.min(1000 * 2 ^ math.min(failures - free - 1, 30), maxDelay)
  redis.call('HSET', pair, 'until', now + delay)
end
redis.call('PEXPIRE', pair, math.max(window, delay))
redis.call('ZADD', client, now, member)
redis.call('PEXPIRE', client, window)
return delay
`;

/**
 * Throttles failed logins so that they cannot be turned against the account's owner: failures
 * slow down the one (email, client) pair that makes them, with growing waits instead of a lock,
 * so the owner logging in from elsewhere is never held back; and one client's failures across
 * all emails are capped, so spreading guesses over many accounts does not escape the limit.
 * A success clears its pair. With Redis unreachable, attempts pass (readiness reports Redis down).
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Seconds this client must wait before trying this email again; 0 when it may try now. */
  async waitSeconds(email: string, clientAddress: string): Promise<number> {
    const { windowSeconds, maxFailuresPerAddress } = this.config.login;
    const waitMs = await this.run(CHECK, email, clientAddress, [windowSeconds * 1000, maxFailuresPerAddress]);
    return Math.ceil((waitMs ?? 0) / 1000);
  }

  async failed(email: string, clientAddress: string): Promise<void> {
    const { freeFailures, maxDelaySeconds, windowSeconds } = this.config.login;
    await this.run(FAIL, email, clientAddress, [
      freeFailures,
      maxDelaySeconds * 1000,
      windowSeconds * 1000,
      randomUUID(),
    ]);
  }

  async succeeded(email: string, clientAddress: string): Promise<void> {
    await this.redis.del(this.keys(email, clientAddress)[0]).catch(() => undefined);
  }

  private keys(email: string, clientAddress: string): [string, string] {
    // The email is hashed so that addresses do not sit in Redis keys.
    const account = createHash('sha256').update(normaliseEmail(email)).digest('base64url').slice(0, 22);
    return [
      redisKey(this.config, 'login', 'pair', account, clientAddress),
      redisKey(this.config, 'login', 'client', clientAddress),
    ];
  }

  private async run(script: string, email: string, clientAddress: string, args: (string | number)[]) {
    try {
      return (await this.redis.eval(script, 2, ...this.keys(email, clientAddress), ...args)) as number;
    } catch (error) {
      this.logger.warn({ err: error }, 'Login throttle cannot reach Redis; letting the attempt through');
      return undefined;
    }
  }
}
