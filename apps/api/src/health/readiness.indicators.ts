import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { WORKER_HEARTBEAT_KEY, type EngineReport } from '@docconv/contracts';
import { REDIS, redisKey } from '@docconv/redis';
import { Storage } from '@docconv/storage';
import type { Redis } from 'ioredis';

/** A worker counts as alive when its heartbeat is at most this old. */
export const WORKER_FRESHNESS_MS = 30_000;

@Injectable()
export class ReadinessIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly storage: Storage,
  ) {}

  redisUp(): Promise<HealthIndicatorResult> {
    return this.answers('redis', () => this.redis.ping(), 1_500);
  }

  storageUp(): Promise<HealthIndicatorResult> {
    return this.answers('storage', () => this.storage.check(), 3_000);
  }

  /** A dependency is up when `call` succeeds within `ms`; otherwise down, with why. */
  private async answers(name: string, call: () => Promise<unknown>, ms: number): Promise<HealthIndicatorResult> {
    const check = this.indicators.check(name);
    try {
      await withTimeout(call(), ms);
      return check.up();
    } catch (error) {
      return check.down({ message: describe(error) });
    }
  }

  async workerSeen(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('worker');
    try {
      const since = Date.now() - WORKER_FRESHNESS_MS;
      const alive = await withTimeout(
        this.redis.zcount(redisKey(this.config, WORKER_HEARTBEAT_KEY), since, '+inf'),
        1_500,
      );
      return alive > 0
        ? check.up({ workers: alive })
        : check.down({ message: `no worker has reported in the last ${WORKER_FRESHNESS_MS / 1000} s` });
    } catch (error) {
      return check.down({ message: describe(error) });
    }
  }
}

/**
 * The Python engines' states from the workers' latest report. Conversion goes on without them
 * (an engine that failed to start is reported, not a reason to stop taking work), so this check
 * is up, with each engine's state, or with why the report could not be read.
 */
export async function enginesCheck(
  indicators: HealthIndicatorService,
  engines: () => Promise<readonly EngineReport[]>,
): Promise<HealthIndicatorResult> {
  const check = indicators.check('engines');
  try {
    const states = await withTimeout(engines(), 1_500);
    return check.up({
      engines: states.map((e) => ({ name: e.name, status: e.status, version: e.version, detail: e.detail })),
    });
  } catch (error) {
    return check.up({ engines: [], message: `the workers' report could not be read: ${describe(error)}` });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : 'unavailable';
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
