import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { REDIS, redisKey } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';

/** Where a job stands, as live subscribers and webhooks see it. */
export interface JobSnapshot {
  job_id: string;
  status: string;
  done_pages: number;
  total_pages: number;
  done_files: number;
  total_files: number;
  done_media_seconds: number;
  media_duration_seconds: number;
  xlsx_advanced_status: string | null;
}

/** What changed: progress while it runs, the end of the job, or the end of an XLSX Advanced run. */
export type JobEventType = 'progress' | 'status' | 'xlsx_advanced';

export interface JobEvent {
  type: JobEventType;
  job: JobSnapshot;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Job states after which nothing more happens to the job by itself. */
export const TERMINAL_STATUSES = new Set(['done', 'error', 'cancelled']);

/** Redis pub/sub channel (under the configured prefix) of one job's events. */
export const jobEventsChannel = (config: AppConfig, jobId: string) => redisKey(config, 'job-events', jobId);

/**
 * Announces what happens to a job: every process that changes a job (API or worker) publishes
 * here, and every API replica relays the channel to its live subscribers. Listeners registered
 * with `onEnded` (webhook deliveries) hear about finished jobs and XLSX Advanced runs. An
 * announcement that cannot be made is logged, never thrown: the job's state is already stored.
 */
@Injectable()
export class JobEvents {
  private readonly logger = new Logger(JobEvents.name);
  private readonly endListeners: ((event: JobEvent) => Promise<void>)[] = [];

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onEnded(listener: (event: JobEvent) => Promise<void>): void {
    this.endListeners.push(listener);
  }

  /** Publishes the job's current progress (read back from PostgreSQL, the source of truth). */
  progress(jobId: string): Promise<void> {
    return this.announce(jobId, 'progress');
  }

  /** Publishes a change of the job's status; when it is final, the end listeners run too. */
  status(jobId: string): Promise<void> {
    return this.announce(jobId, 'status');
  }

  /** Publishes the end of an XLSX Advanced run (done or error). */
  xlsxAdvanced(jobId: string): Promise<void> {
    return this.announce(jobId, 'xlsx_advanced');
  }

  async snapshot(jobId: string): Promise<JobSnapshot | undefined> {
    const [row] = await this.dataSource.query<JobSnapshot[]>(
      `SELECT id AS job_id, status, done_pages, total_pages, done_files, total_files, done_media_seconds,
              media_duration_seconds, xlsx_advanced_status
         FROM jobs WHERE id = $1`,
      [jobId],
    );
    return row;
  }

  private async announce(jobId: string, type: JobEventType): Promise<void> {
    try {
      const job = await this.snapshot(jobId);
      if (!job) return;
      const event: JobEvent = { type, job, at: Date.now() };
      await this.redis.publish(jobEventsChannel(this.config, jobId), JSON.stringify(event));
      const ended = (type === 'status' && TERMINAL_STATUSES.has(job.status)) || type === 'xlsx_advanced';
      if (ended) for (const listener of this.endListeners) await listener(event);
    } catch (error) {
      this.logger.warn({ err: error, job_id: jobId, type }, 'Job event not announced');
    }
  }
}
