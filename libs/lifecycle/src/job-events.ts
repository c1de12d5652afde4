import { Inject, Injectable } from '@nestjs/common';
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

/**
 * A stretch of a job's result delivered as it was made (see PageDelivery): a page of a file, or a
 * file without pages whole. Joined in `seq` order, an attempt's pages are the job's result.md.
 */
export interface DeliveredPage {
  /** From 1, in the order delivered. */
  seq: number;
  /** The attempt it belongs to (a retried job delivers again from 1). */
  retry: number;
  file: string;
  /** The page of a PDF or frame of an image; null for a file delivered whole. */
  page: number | null;
  markdown: string;
  /** Its blocks, as the document model has them. */
  blocks: unknown[];
}

/** A delivered page as published on the job's channel. */
export interface PageDeliveryEvent {
  type: 'page';
  page: DeliveredPage;
  at: number;
}

/** Job states after which nothing more happens to the job by itself. */
export const TERMINAL_STATUSES = new Set(['done', 'error', 'cancelled']);

/** Redis pub/sub channel (under the configured prefix) of one job's events. */
export const jobEventsChannel = (config: AppConfig, jobId: string) => redisKey(config, 'job-events', jobId);

/**
 * Announces what happens to a job on Redis: every process that changes a job publishes here,
 * and every API replica relays the channel to its live subscribers. Status changes reach it
 * through the outbox (sent at least once); progress is published directly, as it happens.
 */
@Injectable()
export class JobEvents {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async snapshot(jobId: string): Promise<JobSnapshot | undefined> {
    const [row] = await this.dataSource.query<JobSnapshot[]>(
      `SELECT j.id AS job_id, j.status, j.done_pages, j.total_pages, j.done_files, j.total_files, j.done_media_seconds,
              j.media_duration_seconds, c.status AS xlsx_advanced_status
         FROM jobs j LEFT JOIN job_conversions c ON c.job_id = j.id AND c.format = 'xlsx_advanced'
        WHERE j.id = $1`,
      [jobId],
    );
    return row;
  }

  /** The job's current attempt and how many pages it has delivered so far (stored under results/<job>/pages/<attempt>/). */
  async deliveredPages(jobId: string): Promise<{ retry: number; count: number }> {
    const [row] = await this.dataSource.query<{ retry: number; count: number }[]>(
      'SELECT retry_count AS retry, page_events AS count FROM jobs WHERE id = $1',
      [jobId],
    );
    return row ?? { retry: 0, count: 0 };
  }

  /** Publishes a page the job delivered; throws when Redis is away (a subscriber reads it from storage then). */
  async page(jobId: string, page: DeliveredPage): Promise<void> {
    const event: PageDeliveryEvent = { type: 'page', page, at: Date.now() };
    await this.redis.publish(jobEventsChannel(this.config, jobId), JSON.stringify(event));
  }

  /** Publishes the job's current state (read back from PostgreSQL, the source of truth); throws when Redis is away. */
  async announce(jobId: string, type: JobEventType): Promise<void> {
    const job = await this.snapshot(jobId);
    if (!job) return;
    const event: JobEvent = { type, job, at: Date.now() };
    await this.redis.publish(jobEventsChannel(this.config, jobId), JSON.stringify(event));
  }
}
