import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { PARSE_JOBS, type ParseQueue } from '@docconv/contracts';
import { Queues } from '@docconv/redis';
import { inputsPrefix, Storage } from '@docconv/storage';
import { WebhookDeliveries } from '@docconv/webhooks';
import { DataSource } from 'typeorm';
import { JobLifecycle } from './job-lifecycle';
import { Outbox } from './outbox';

/** A run younger than this may still have its message on the way; the sweep leaves it alone. */
const SETTLE_SECONDS = 10;
/** At most this many jobs are looked at per sweep of each kind; the next sweep takes the rest. */
const BATCH = 500;

/** What one sweep found and did. */
export interface SweepReport {
  outbox: number;
  parseResent: number;
  advancedResent: number;
  advancedGivenUp: number;
  parseGivenUp: number;
  deliveriesResent: number;
}

/**
 * The one place that brings the queue back in line with the database, which is the truth: it
 * sends outbox messages left unsent, sends again the messages of runs the queue no longer holds
 * (parse jobs, XLSX Advanced runs, webhook deliveries), ends as refundable errors the runs the
 * queue gave up on or that ran past their deadline, and cancels quotes that expired.
 */
@Injectable()
export class Sweeper {
  private readonly logger = new Logger(Sweeper.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycle,
    private readonly outbox: Outbox,
    private readonly queues: Queues,
    private readonly deliveries: WebhookDeliveries,
    private readonly storage: Storage,
  ) {}

  async sweep(): Promise<SweepReport> {
    const { sent: outbox } = await this.outbox.sendLeftovers();
    const parse = await this.sweepParse();
    const advanced = await this.sweepAdvanced();
    const { resent: deliveriesResent } = await this.deliveries.resendLost();
    const report = { outbox, ...parse, ...advanced, deliveriesResent };
    if (Object.values(report).some((n) => n > 0)) this.logger.warn(report, 'Sweep brought the queue in line');
    return report;
  }

  /** Pending jobs past their quote's validity become cancelled; their inputs are deleted. */
  async expirePending(): Promise<{ expired: number }> {
    const due = await this.candidates(`status = 'pending' AND expires_at <= now()`);
    let expired = 0;
    for (const { id } of due) {
      if (!(await this.lifecycle.move('expire', { jobId: id }, {}))) continue;
      expired++;
      await this.storage.deletePrefix(inputsPrefix(id)).catch(() => undefined);
    }
    return { expired };
  }

  /** Parse jobs and XLSX Advanced runs past the maximum run time (plus a minute's grace) end as refundable errors. */
  async failOverdue(): Promise<{ failed: number }> {
    const seconds = this.config.worker.maxRuntimeSeconds + 60;
    const late = `make_interval(secs => ${Number(seconds)})`;
    let failed = 0;
    for (const { id } of await this.candidates(`status = 'processing' AND started_at < now() - ${late}`)) {
      if (await this.lifecycle.move('overdue', { jobId: id }, { seconds })) failed++;
    }
    for (const run of await this.runs(`started_at < now() - ${late}`)) {
      const notes = 'The conversion did not finish within the time a conversion may run.';
      if (await this.failAdvanced(run.job_id, run.run_id, notes)) failed++;
    }
    if (failed > 0) this.logger.warn({ failed }, 'Failed runs that ran past the maximum run time');
    return { failed };
  }

  private async sweepParse(): Promise<{ parseResent: number; parseGivenUp: number }> {
    let parseResent = 0;
    let parseGivenUp = 0;
    const settled = `now() - make_interval(secs => ${SETTLE_SECONDS})`;
    for (const job of await this.candidates(`status = 'queued' AND confirmed_at < ${settled}`)) {
      const message = { jobId: job.id, retry: job.retry_count };
      if (await this.queues.resend(PARSE_JOBS[job.parse_queue], message)) parseResent++;
    }
    for (const job of await this.candidates(`status = 'processing' AND started_at < ${settled}`)) {
      // Read whole, the job's parse message ends it; spread over page ranges, its parse.assemble does.
      const message = { jobId: job.id, retry: job.retry_count };
      const run = await this.queues.state(PARSE_JOBS[job.parse_queue], message);
      const assemble = await this.queues.state('parse.assemble', { ...message, rangePages: 0 });
      if (run === 'failed' || assemble === 'failed') {
        const reason = 'Processing was interrupted too many times to finish. Retry the job, or ask for a refund.';
        if (await this.lifecycle.move('fail', { jobId: job.id }, { reason, failed: 0 })) parseGivenUp++;
      } else if (run === 'missing' && assemble === 'missing') {
        // Redis lost every message of it (restarted empty, or the spread's flow never reached it):
        // the job starts over, its progress counted again from its first page.
        if (await this.queues.resend(PARSE_JOBS[job.parse_queue], message, run)) parseResent++;
      }
    }
    return { parseResent, parseGivenUp };
  }

  private async sweepAdvanced(): Promise<{ advancedResent: number; advancedGivenUp: number }> {
    let advancedResent = 0;
    let advancedGivenUp = 0;
    for (const run of await this.runs(`started_at < now() - make_interval(secs => ${SETTLE_SECONDS})`)) {
      const message = { jobId: run.job_id, conversionId: run.run_id, attempt: run.attempt };
      const state = await this.queues.state('convert.xlsx-advanced', message);
      if (state === 'failed') {
        const notes = 'The conversion was interrupted too many times to finish.';
        if (await this.failAdvanced(run.job_id, run.run_id, notes)) advancedGivenUp++;
      } else if (await this.queues.resend('convert.xlsx-advanced', message, state)) {
        advancedResent++;
      }
    }
    return { advancedResent, advancedGivenUp };
  }

  private failAdvanced(jobId: string, runId: string, notes: string) {
    return this.lifecycle.move(
      'failAdvanced',
      { jobId, format: 'xlsx_advanced' },
      { runId, notes: advancedRecoveryNotes(jobId, notes) },
    );
  }

  private candidates(condition: string) {
    return this.dataSource.query<{ id: string; retry_count: number; parse_queue: ParseQueue }[]>(
      `SELECT id, retry_count, parse_queue FROM jobs WHERE ${condition} ORDER BY created_at LIMIT ${BATCH}`,
    );
  }

  /** XLSX Advanced runs in progress that also meet `condition`. */
  private runs(condition: string) {
    return this.dataSource.query<{ job_id: string; run_id: string; attempt: number }[]>(
      `SELECT job_id, run_id, attempt FROM job_conversions
        WHERE format = 'xlsx_advanced' AND status = 'processing' AND ${condition}
        ORDER BY started_at LIMIT ${BATCH}`,
    );
  }
}

/** What a failed XLSX Advanced run tells the user: the reason, and the two ways on. */
export function advancedRecoveryNotes(jobId: string, reason: string): string {
  return (
    `${reason} Retry it with POST /api/v1/jobs/${jobId}/xlsx-advanced-action {"action":"retry"} (free), ` +
    'or get the credits back with {"action":"refund"}.'
  );
}
