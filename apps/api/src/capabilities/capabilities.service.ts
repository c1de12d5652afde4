import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { WORKER_CAPABILITIES_KEY, type WorkerCapabilities } from '@docconv/contracts';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import type { Capabilities } from '../jobs/upload-options';

/** A report this recent comes from a live worker (workers report every 30 s). */
const FRESH_MS = 90_000;
/** Reports are read from Redis at most this often per API process. */
const CACHE_MS = 2_000;

/** What the API assumes before any worker has reported: Tesseract ships with every worker. */
const ASSUMED: Omit<WorkerCapabilities, 'worker_id' | 'reported_at'> = {
  ocr_engines: ['tesseract'],
  tesseract_runtime: 'native',
  ocr_languages: ['eng', 'kor'],
  transcription: { available: false, model: null },
  refinement: { available: false, model: null },
  engines: [],
};

export interface CurrentCapabilities {
  report: Omit<WorkerCapabilities, 'worker_id' | 'reported_at'>;
  /** When the report was written; null when no worker has reported yet. */
  reportedAt: Date | null;
  /** The report is older than a live worker's would be (every worker may be down). */
  stale: boolean;
}

/**
 * What the workers can run, from their reports in Redis: the freshest report of a live worker,
 * else the latest report of any, else the assumption above. Upload validation and
 * `GET /capabilities` both read it, so the preview names the engine that will really run.
 */
@Injectable()
export class CapabilitiesService {
  private cached?: { at: number; value: CurrentCapabilities };

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async current(): Promise<CurrentCapabilities> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    let stored: Record<string, string>;
    try {
      stored = await this.redis.hgetall(redisKey(this.config, WORKER_CAPABILITIES_KEY));
    } catch {
      // Redis is away: uploads need no Redis, so the last answer stands (or the assumption), marked stale.
      return { ...(this.cached?.value ?? { report: ASSUMED, reportedAt: null }), stale: true };
    }
    const reports = Object.values(stored)
      .map((raw) => parse(raw))
      .filter((r): r is WorkerCapabilities => r !== undefined)
      .sort((a, b) => b.reported_at - a.reported_at);
    const latest = reports[0];
    const value: CurrentCapabilities = latest
      ? { report: latest, reportedAt: new Date(latest.reported_at), stale: Date.now() - latest.reported_at > FRESH_MS }
      : { report: ASSUMED, reportedAt: null, stale: true };
    this.cached = { at: Date.now(), value };
    return value;
  }

  /** The part upload validation needs. */
  async forUpload(): Promise<Capabilities> {
    const { report } = await this.current();
    return {
      engines: report.ocr_engines,
      refinement: report.refinement.available,
      transcription: report.transcription.available,
    };
  }
}

function parse(raw: string): WorkerCapabilities | undefined {
  try {
    const value = JSON.parse(raw) as WorkerCapabilities;
    return Array.isArray(value.ocr_engines) && typeof value.reported_at === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}
