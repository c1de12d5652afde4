import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LedgerService, type PostedTransaction } from '@docconv/billing';
import { JobEntity } from '@docconv/db';
import { WebhookDeliveries } from '@docconv/webhooks';
import { DataSource, type EntityManager } from 'typeorm';
import { JobEvents } from './job-events';
import { Outbox } from './outbox';
import { TRANSITIONS, type TransitionName, type TransitionParams } from './transitions';

/** Which job a move is for; with `userId`, only if it is that user's. */
export interface Target {
  jobId: string;
  userId?: string;
}

/** The job as a move left it, and the ledger row the move posted (if it posts one). */
export interface Moved {
  job: JobEntity;
  posted: PostedTransaction | null;
}

/** The conversion files recorded on the job, one column each. */
export type ConversionColumn = 'xlsx_basic_path' | 'docx_path' | 'pptx_path';

/** A transaction in which moves may be made; their messages are sent once it commits. */
export interface LifecycleTransaction {
  manager: EntityManager;
  move<N extends TransitionName>(name: N, target: Target, params: TransitionParams<N>): Promise<Moved | null>;
}

/**
 * The owner of a job's state: the only code that writes the `jobs` row after its creation.
 * A move is a conditional update on the expected current state (of two concurrent moves
 * exactly one wins), posted to the ledger and written to the outbox in the same transaction;
 * when the move ends the job or one of its XLSX Advanced runs, the webhook delivery is
 * recorded in it too. After the commit the outbox messages are sent.
 */
@Injectable()
export class JobLifecycle {
  private readonly logger = new Logger(JobLifecycle.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly events: JobEvents,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  /** Runs `work` in one transaction, then sends the messages its moves wrote. */
  async transaction<T>(work: (tx: LifecycleTransaction) => Promise<T>): Promise<T> {
    const written: string[] = [];
    const result = await this.dataSource.transaction((manager) =>
      work({ manager, move: (name, target, params) => this.apply(manager, written, name, target, params) }),
    );
    await this.outbox.send(written);
    return result;
  }

  /** One move in a transaction of its own; null when the job is not in a state it moves from. */
  move<N extends TransitionName>(name: N, target: Target, params: TransitionParams<N>): Promise<Moved | null> {
    return this.transaction((tx) => tx.move(name, target, params));
  }

  /** Progress of a processing job, published as it is written (not through the outbox: the next one supersedes it). */
  async progress(jobId: string, done: { pages: number; files: number; mediaSeconds: number }): Promise<void> {
    await this.dataSource.query(
      `UPDATE jobs SET done_pages = $2, done_files = $3, done_media_seconds = $4
        WHERE id = $1 AND status = 'processing'`,
      [jobId, done.pages, done.files, done.mediaSeconds],
    );
    await this.events.announce(jobId, 'progress').catch((error: unknown) => {
      this.logger.warn({ err: error, job_id: jobId }, 'Progress not announced');
    });
  }

  /** Records a conversion's file on the job with `m`, if none is recorded yet; true when this call recorded it. */
  async recordConversion(m: EntityManager, jobId: string, column: ConversionColumn, path: string): Promise<boolean> {
    const won = await m.query<unknown[]>(
      `WITH won AS (UPDATE jobs SET ${column} = $2 WHERE id = $1 AND ${column} IS NULL RETURNING id)
       SELECT * FROM won`,
      [jobId, path],
    );
    return won.length > 0;
  }

  /** Renames one of the user's jobs, in any state; false when it is not theirs. */
  async rename(userId: string, jobId: string, title: string): Promise<boolean> {
    const renamed = await this.dataSource.query<unknown[]>(
      `WITH renamed AS (UPDATE jobs SET filename = $3 WHERE id = $1 AND user_id = $2 RETURNING id)
       SELECT * FROM renamed`,
      [jobId, userId, title],
    );
    return renamed.length > 0;
  }

  private async apply<N extends TransitionName>(
    m: EntityManager,
    written: string[],
    name: N,
    target: Target,
    params: TransitionParams<N>,
  ): Promise<Moved | null> {
    const spec = TRANSITIONS[name];
    const values: unknown[] = [target.jobId, spec.to, spec.from.filter((s) => s !== null)];
    const bind = (sql: string) =>
      sql.replace(/(?<!:):([A-Za-z]\w*)/g, (_, key: string) => {
        if (!(key in params)) throw new Error(`transition ${name} has no parameter ${key}`);
        values.push((params as Record<string, unknown>)[key]);
        return `$${values.length}`;
      });
    const assignments = [`${spec.field} = $2`, ...Object.entries(spec.set ?? {}).map(([c, e]) => `${c} = ${bind(e)}`)];
    const conditions = [
      'id = $1',
      spec.from.includes(null) ? `(${spec.field} = ANY($3) OR ${spec.field} IS NULL)` : `${spec.field} = ANY($3)`,
    ];
    if (target.userId) {
      values.push(target.userId);
      conditions.push(`user_id = $${values.length}`);
    }
    if (spec.when) conditions.push(`(${bind(spec.when)})`);
    const rows = await m.query<{ id: string }[]>(
      `WITH moved AS (UPDATE jobs SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} RETURNING id)
       SELECT id FROM moved`,
      values,
    );
    if (rows.length === 0) return null;

    const job = await m.findOneByOrFail(JobEntity, { id: target.jobId });
    const posting = spec.posting?.(job, params);
    const posted = posting ? await this.ledger.post({ ...posting, userId: job.userId, jobId: job.id }, m) : null;
    if (spec.event) {
      written.push(await this.outbox.write(m, { kind: 'event', jobId: job.id, type: spec.event }));
      const deliveryId = await this.deliveries.record(m, spec.event, job);
      if (deliveryId) {
        const payload = { deliveryId, attempt: 1 };
        written.push(await this.outbox.write(m, { kind: 'enqueue', name: 'webhook.deliver', payload }));
      }
    }
    if (spec.send) written.push(await this.outbox.write(m, spec.send(job, params)));
    return { job, posted };
  }
}
