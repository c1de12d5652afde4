import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { LedgerService, type PostedTransaction } from '@docconv/billing';
import { conversionOf, JobEntity, type ConversionFormat, type JobConversionEntity } from '@docconv/db';
import { WebhookDeliveries } from '@docconv/webhooks';
import { MAX_PRIORITY, PARSE_JOBS } from '@docconv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { JobEvents, type DeliveredPage } from './job-events';
import { Outbox } from './outbox';
import { SerialByKey } from './serial-by-key';
import { TRANSITIONS, type TransitionName, type TransitionParams, type TransitionSpec } from './transitions';

/** Which job a move is for (with `format`, which of its conversions); with `userId`, only if it is that user's. */
export interface Target {
  jobId: string;
  userId?: string;
  format?: ConversionFormat;
}

/** The job as a move left it (with the conversion moved, for a conversion's move), and the ledger row the move posted. */
export interface Moved {
  job: JobEntity;
  conversion?: JobConversionEntity;
  posted: PostedTransaction | null;
}

/** The job's range counts with the range at page $2 set to $3 (of the row being updated, as it is when locked). */
const RANGE_COUNTS = `COALESCE(range_done_pages, '{}'::jsonb) || jsonb_build_object($2::text, $3::int)`;

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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Transactions that move a user's credits, one user's at a time (see `transaction`). */
  private readonly creditMoves = new SerialByKey();

  /**
   * Runs `work` in one transaction, then sends the messages its moves wrote.
   *
   * With `userId`, the transaction moves that user's credits: such transactions of this process
   * wait for each other here, before taking a pooled connection. Each locks the user's balance
   * row, so a burst of one user's confirms would otherwise hold every connection of the pool
   * while they queue for the lock, and other requests would time out waiting for a connection.
   */
  async transaction<T>(work: (tx: LifecycleTransaction) => Promise<T>, userId?: string): Promise<T> {
    const written: string[] = [];
    const run = () =>
      this.dataSource.transaction((manager) =>
        work({ manager, move: (name, target, params) => this.apply(manager, written, name, target, params) }),
      );
    const result = await (userId === undefined ? run() : this.creditMoves.run(userId, run));
    // Committed: a message that cannot be sent now waits in the outbox for the sweep, never fails the move.
    await this.outbox.send(written).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Outbox messages left for the sweep');
    });
    return result;
  }

  /**
   * One move in a transaction of its own; null when the job is not in a state it moves from.
   * A target naming its user is a move of that user's credits (see `transaction`).
   */
  move<N extends TransitionName>(name: N, target: Target, params: TransitionParams<N>): Promise<Moved | null> {
    return this.transaction((tx) => tx.move(name, target, params), target.userId);
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

  /**
   * Progress of one page range of a fanned-out parse (the range starting at page `first`): its
   * count replaces the range's last one and `done_pages` becomes the sum over the ranges, in one
   * statement, so ranges read at once by several workers never lose each other's counts.
   */
  async rangeProgress(jobId: string, first: number, done: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE jobs SET range_done_pages = ${RANGE_COUNTS},
              done_pages = (SELECT COALESCE(SUM(n::int), 0) FROM jsonb_each_text(${RANGE_COUNTS}) AS each(range, n))
        WHERE id = $1 AND status = 'processing'`,
      [jobId, first, done],
    );
    await this.events.announce(jobId, 'progress').catch((error: unknown) => {
      this.logger.warn({ err: error, job_id: jobId }, 'Progress not announced');
    });
  }

  /**
   * How many pages the job's current attempt has delivered (`page_events`), and the one it just
   * delivered announced on the job's channel (not through the outbox: a subscriber that misses it
   * reads it from storage, as a reconnecting one does).
   */
  async pageEvents(jobId: string, count: number, page?: DeliveredPage): Promise<void> {
    await this.dataSource.query('UPDATE jobs SET page_events = $2 WHERE id = $1', [jobId, count]);
    if (!page) return;
    await this.events.page(jobId, page).catch((error: unknown) => {
      this.logger.warn({ err: error, job_id: jobId }, 'Delivered page not announced');
    });
  }

  /** Whether the owner has cancelled the job while it processes. */
  async cancelRequested(jobId: string): Promise<boolean> {
    const [row] = await this.dataSource.query<{ requested: boolean }[]>(
      'SELECT cancel_requested_at IS NOT NULL AS requested FROM jobs WHERE id = $1',
      [jobId],
    );
    return row?.requested ?? false;
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
    const spec: TransitionSpec = TRANSITIONS[name];
    const sql = new Statement(name, params);
    const id = sql.value(target.jobId);
    const owned = target.userId ? ` AND user_id = ${sql.value(target.userId)}` : '';
    const states = spec.from.filter((state) => state !== null);
    const from = () => sql.value(states); // a placeholder only where used: PostgreSQL types every one it is sent
    const to = sql.value(spec.to);
    const set = Object.entries(spec.set ?? {}).map(([column, e]) => `${column} = ${sql.bind(e)}`);
    const when = spec.when ? ` AND (${sql.bind(spec.when)})` : '';
    let moved: unknown[];
    if (spec.subject === 'job') {
      moved = await m.query(
        `WITH moved AS (
           UPDATE jobs SET ${['status = ' + to, ...set].join(', ')}
            WHERE id = ${id}${owned} AND status = ANY(${from()})${when} RETURNING id)
         SELECT id FROM moved`,
        sql.values,
      );
    } else {
      if (!target.format) throw new Error(`transition ${name} moves a conversion: name its format`);
      const format = sql.value(target.format);
      const exists = `EXISTS (SELECT 1 FROM jobs WHERE id = ${id}${owned})`;
      if (spec.from.includes(null)) {
        // No row yet: the move creates it; a row in one of `from` is moved like any other.
        const insert = Object.entries(spec.insert ?? {}).map(([column, e]) => [column, sql.bind(e)] as const);
        // Columns in `set` and `when` are the existing row's, named with the table (`job_conversions.attempt`).
        const onConflict =
          spec.from.length > 1
            ? `DO UPDATE SET ${['status = EXCLUDED.status', ...set].join(', ')}
                WHERE job_conversions.status = ANY(${from()})${when}`
            : 'DO NOTHING';
        moved = await m.query(
          `WITH moved AS (
             INSERT INTO job_conversions (job_id, format, status${insert.map(([c]) => `, ${c}`).join('')})
             SELECT ${id}, ${format}, ${to}${insert.map(([, v]) => `, ${v}`).join('')} WHERE ${exists}
             ON CONFLICT (job_id, format) ${onConflict}
             RETURNING job_id)
           SELECT job_id FROM moved`,
          sql.values,
        );
      } else {
        moved = await m.query(
          `WITH moved AS (
             UPDATE job_conversions SET ${['status = ' + to, ...set].join(', ')}
              WHERE job_id = ${id} AND format = ${format} AND status = ANY(${from()})${when} AND ${exists}
              RETURNING job_id)
           SELECT job_id FROM moved`,
          sql.values,
        );
      }
    }
    if (moved.length === 0) return null;

    const job = await m.findOneByOrFail(JobEntity, { id: target.jobId });
    const conversion = target.format ? conversionOf(job, target.format) : undefined;
    const context = { job, conversion, params: params as Record<string, unknown> };
    const posting = spec.posting?.(context);
    const posted = posting ? await this.ledger.post({ ...posting, userId: job.userId, jobId: job.id }, m) : null;
    if (spec.event) {
      written.push(await this.outbox.write(m, { kind: 'event', jobId: job.id, type: spec.event }));
      const deliveryId = await this.deliveries.record(m, spec.event, job);
      if (deliveryId) {
        const payload = { deliveryId, attempt: 1 };
        written.push(await this.outbox.write(m, { kind: 'enqueue', name: 'webhook.deliver', payload }));
      }
    }
    if (spec.send) {
      const message = spec.send(context);
      if (message.kind === 'enqueue' && message.name === PARSE_JOBS[job.parseQueue])
        message.priority = await this.turnOf(m, job);
      written.push(await this.outbox.write(m, message));
    }
    return { job, conversion, posted };
  }

  /**
   * A parse job's place in the queue under per-user fairness: behind the pages its owner already
   * has queued or running (each job counting at least one), so that another user's first job,
   * at priority 1, goes before the rest of a backlog. Undefined (first come, first served) when
   * fairness is off.
   */
  private async turnOf(m: EntityManager, job: JobEntity): Promise<number | undefined> {
    if (this.config.worker.fairness === 'off') return undefined;
    const [row] = await m.query<{ pages: string }[]>(
      `SELECT COALESCE(SUM(GREATEST(total_pages, 1)), 0)::text AS pages FROM jobs
        WHERE user_id = $1 AND id <> $2 AND status IN ('queued', 'processing')`,
      [job.userId, job.id],
    );
    return 1 + Math.min(Number(row.pages), MAX_PRIORITY - 1);
  }
}

/** A statement's parameters: values added in order, and `:name` in declared SQL bound to the move's parameter `name`. */
class Statement {
  readonly values: unknown[] = [];

  constructor(
    private readonly transition: string,
    private readonly params: Record<string, unknown>,
  ) {}

  /** A placeholder for `value`. */
  value(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** The declared SQL with each `:name` replaced by a placeholder for that parameter. */
  bind(sql: string): string {
    return sql.replace(/(?<!:):([A-Za-z]\w*)/g, (_, key: string) => {
      if (!(key in this.params)) throw new Error(`transition ${this.transition} has no parameter ${key}`);
      return this.value(this.params[key]);
    });
  }
}
