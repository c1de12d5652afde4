import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectQueue } from '@nestjs/bullmq';
import { InjectDataSource } from '@nestjs/typeorm';
import { parseQueueJobId, type JobPayload } from '@docconv/contracts';
import { Storage } from '@docconv/storage';
import { JobEvents } from './job-events';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';

/** A queued job older than this that the queue does not hold is sent again. */
const SWEEP_AFTER_SECONDS = 10;

@Injectable()
export class JobsMaintenanceService {
  private readonly logger = new Logger(JobsMaintenanceService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue('parse') private readonly parseQueue: Queue<JobPayload<'parse.run'>>,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: JobEvents,
  ) {}

  /** Pending jobs past their quote's validity become cancelled; their inputs are deleted. */
  async expirePending(): Promise<{ expired: number }> {
    const expired = await this.dataSource.query<{ id: string }[]>(
      `WITH expired AS (
         UPDATE jobs SET status = 'cancelled', cancelled_at = now(),
                error_log = 'The quote expired after 24 hours without confirmation. Upload the files again for a new quote.'
          WHERE status = 'pending' AND expires_at <= now()
          RETURNING id)
       SELECT id FROM expired`,
    );
    for (const { id } of expired) {
      await this.storage.deletePrefix(`inputs/${id}`).catch(() => undefined);
      await this.events.status(id);
    }
    return { expired: expired.length };
  }

  /** Jobs processing past the maximum run time (plus a minute's grace) end as refundable errors. */
  async failOverdue(): Promise<{ failed: number }> {
    const failed = await this.dataSource.query<{ id: string }[]>(
      `WITH overdue AS (
         UPDATE jobs SET status = 'error', refundable = true, finished_at = now(),
                error_log = 'Processing did not finish within the time a job may run. Retry it, or ask for a refund.'
          WHERE status = 'processing' AND started_at < now() - make_interval(secs => $1)
          RETURNING id)
       SELECT id FROM overdue`,
      [this.config.worker.maxRuntimeSeconds + 60],
    );
    if (failed.length > 0)
      this.logger.warn({ failed: failed.map((r) => r.id) }, 'Failed jobs that ran past the maximum run time');
    for (const { id } of failed) await this.events.status(id);
    return { failed: failed.length };
  }

  /** Re-sends queued jobs the queue lost (e.g. the API stopped between commit and send). */
  async sweepQueued(): Promise<{ resent: number }> {
    const queued = await this.dataSource.query<{ id: string; retry_count: number }[]>(
      `SELECT id, retry_count FROM jobs
        WHERE status = 'queued' AND confirmed_at < now() - make_interval(secs => $1)
        ORDER BY confirmed_at LIMIT 500`,
      [SWEEP_AFTER_SECONDS],
    );
    let resent = 0;
    for (const job of queued) {
      const queueJobId = parseQueueJobId(job.id, job.retry_count);
      const existing = await this.parseQueue.getJob(queueJobId);
      if (existing && !(await existing.isCompleted()) && !(await existing.isFailed())) continue;
      if (existing) await existing.remove();
      await this.parseQueue.add('parse.run', { jobId: job.id }, { jobId: queueJobId });
      resent++;
    }
    if (resent > 0) this.logger.warn({ resent }, 'Re-sent queued jobs the queue did not hold');
    return { resent };
  }
}
