import type { LedgerEntry } from '@docconv/billing';
import type { JobEntity } from '@docconv/db';
import type { OutboxMessage } from './outbox';

/** How many times a failed job may be re-dispatched for free. */
export const MAX_RETRIES = 3;

/** What a job's end is heard as: its own status, or the status of one of its XLSX Advanced runs. */
export type EventKind = 'status' | 'xlsx_advanced';

/** A ledger row a move posts in its own transaction; the user is the job's. */
export type Posting = Omit<LedgerEntry, 'userId' | 'jobId'>;

/**
 * One declared move of a job's state. `set` and `when` are SQL over the job's row, in which
 * `:name` stands for the move's parameter `name`. The move happens only if the job is in one
 * of `from` (and `when` holds); then, in the same transaction, its ledger row is posted and
 * its messages are written to the outbox.
 */
export interface TransitionSpec {
  /** The state column moved: the job's status, or its XLSX Advanced run's. */
  field: 'status' | 'xlsx_advanced_status';
  from: readonly (string | null)[];
  to: string;
  set?: Readonly<Record<string, string>>;
  when?: string;
  /** What live subscribers hear of the move; when the move ends the job or run, its webhook too. */
  event?: EventKind;
  /** The ledger row of the move, from the moved job and the parameters; null posts nothing. */
  posting?: (job: JobEntity, params: Record<string, unknown>) => Posting | null;
  /** The queue message the move sends once committed. */
  send?: (job: JobEntity, params: Record<string, unknown>) => OutboxMessage;
}

/** A spec with the type of its parameters attached. */
type Transition<P> = TransitionSpec & { readonly params?: P };

const declare = <P extends Record<string, unknown> = Record<string, never>>(spec: TransitionSpec): Transition<P> =>
  spec;

const parseMessage = (job: JobEntity): OutboxMessage => ({
  kind: 'enqueue',
  name: 'parse.run',
  payload: { jobId: job.id, retry: job.retryCount },
});

/** A run's message: the run's count (a start, a retry) makes it new. */
export const conversionMessage = (job: JobEntity): OutboxMessage => ({
  kind: 'enqueue',
  name: 'convert.xlsx-advanced',
  payload: { jobId: job.id, conversionId: job.xlsxAdvancedJobId!, attempt: job.xlsxAdvancedRuns },
});

/** Who asked for a move that costs or returns money: the key the ledger row names. */
type Caller = { apiKeyId: string | null };

/**
 * Every way a job's state changes, declared once. `JobLifecycle.move` is the only code that
 * applies them, and so the only code that writes `jobs.status` and `jobs.xlsx_advanced_status`.
 */
export const TRANSITIONS = {
  // ---- the job ---------------------------------------------------------------------------
  /** The user accepts the quote: it is charged and queued. */
  confirm: declare<Caller>({
    field: 'status',
    from: ['pending'],
    to: 'queued',
    when: 'expires_at > now()',
    set: { confirmed_at: 'now()', cost_points: 'quoted_points' },
    event: 'status',
    posting: (job, p) =>
      job.costPoints > 0
        ? {
            type: 'spend',
            points: job.costPoints,
            apiKeyId: (p as Caller).apiKeyId,
            description: `Job ${job.id}: ${job.filename}`,
            idempotencyKey: `job:${job.id}:confirm`,
          }
        : null,
    send: parseMessage,
  }),
  /** A pending job is cancelled for nothing; a queued one is refunded in full. */
  cancel: declare<Caller>({
    field: 'status',
    from: ['pending', 'queued'],
    to: 'cancelled',
    set: {
      cancelled_at: 'now()',
      refunded_points: 'cost_points',
      refunded_at: 'CASE WHEN cost_points > 0 THEN now() END',
    },
    event: 'status',
    posting: (job, p) =>
      job.costPoints > 0
        ? {
            type: 'refund',
            points: job.costPoints,
            apiKeyId: (p as Caller).apiKeyId,
            description: `Job ${job.id} cancelled before processing`,
            idempotencyKey: `job:${job.id}:refund`,
          }
        : null,
  }),
  /** A quote nobody confirmed within its validity. */
  expire: declare({
    field: 'status',
    from: ['pending'],
    to: 'cancelled',
    when: 'expires_at <= now()',
    set: {
      cancelled_at: 'now()',
      error_log: `'The quote expired after 24 hours without confirmation. Upload the files again for a new quote.'`,
    },
    event: 'status',
  }),
  /** A worker takes the job (again, after a crash: the attempt starts over). */
  start: declare({
    field: 'status',
    from: ['queued', 'processing'],
    to: 'processing',
    set: { started_at: 'coalesce(started_at, now())', done_pages: '0', done_files: '0' },
    event: 'status',
  }),
  finish: declare<{ resultPath: string }>({
    field: 'status',
    from: ['processing'],
    to: 'done',
    set: {
      finished_at: 'now()',
      result_path: ':resultPath',
      done_pages: 'total_pages',
      done_files: 'total_files',
    },
    event: 'status',
  }),
  /** The job could not be converted: the user may retry it or take a refund. */
  fail: declare<{ reason: string }>({
    field: 'status',
    from: ['processing'],
    to: 'error',
    set: { refundable: 'true', error_log: ':reason', finished_at: 'now()' },
    event: 'status',
  }),
  /** A job still processing past the time a job may run (its worker died). */
  overdue: declare<{ seconds: number }>({
    field: 'status',
    from: ['processing'],
    to: 'error',
    when: 'started_at < now() - make_interval(secs => :seconds)',
    set: {
      refundable: 'true',
      finished_at: 'now()',
      error_log: `'Processing did not finish within the time a job may run. Retry it, or ask for a refund.'`,
    },
    event: 'status',
  }),
  retry: declare({
    field: 'status',
    from: ['error'],
    to: 'queued',
    when: `refundable AND retry_count < ${MAX_RETRIES}`,
    set: {
      retry_count: 'retry_count + 1',
      error_log: 'NULL',
      refundable: 'false',
      done_pages: '0',
      done_files: '0',
      started_at: 'NULL',
      finished_at: 'NULL',
    },
    event: 'status',
    send: parseMessage,
  }),
  /** Every point deducted for a failed job, returned once; the job stays `error`. */
  refund: declare<Caller>({
    field: 'status',
    from: ['error'],
    to: 'error',
    when: 'refundable',
    set: { refundable: 'false', refunded_points: 'cost_points', refunded_at: 'now()' },
    posting: (job, p) =>
      job.costPoints > 0
        ? {
            type: 'refund',
            points: job.costPoints,
            apiKeyId: (p as Caller).apiKeyId,
            description: `Refund of job ${job.id}`,
            idempotencyKey: `job:${job.id}:refund`,
          }
        : null,
  }),

  // ---- its XLSX Advanced runs --------------------------------------------------------------
  /** A new run (never asked, or refunded), charged as it starts. */
  startAdvanced: declare<Caller & { conversionId: string; points: number }>({
    field: 'xlsx_advanced_status',
    from: [null, 'refunded'],
    to: 'processing',
    set: {
      xlsx_advanced_job_id: ':conversionId',
      xlsx_advanced_refundable: 'false',
      xlsx_advanced_recovery_notes: 'NULL',
      xlsx_advanced_path: 'NULL',
      xlsx_advanced_started_at: 'now()',
    },
    posting: (job, p) => ({
      type: 'spend',
      points: p.points as number,
      apiKeyId: (p as Caller).apiKeyId,
      description: `XLSX Advanced of job ${job.id}`,
      idempotencyKey: `xlsx-advanced:${job.xlsxAdvancedJobId}`,
    }),
    send: conversionMessage,
  }),
  /** The failed run again, free. */
  retryAdvanced: declare({
    field: 'xlsx_advanced_status',
    from: ['error'],
    to: 'processing',
    when: 'xlsx_advanced_refundable',
    set: {
      xlsx_advanced_refundable: 'false',
      xlsx_advanced_recovery_notes: 'NULL',
      xlsx_advanced_started_at: 'now()',
    },
    send: conversionMessage,
  }),
  refundAdvanced: declare<Caller & { points: number }>({
    field: 'xlsx_advanced_status',
    from: ['error'],
    to: 'refunded',
    when: 'xlsx_advanced_refundable',
    set: { xlsx_advanced_refundable: 'false', xlsx_advanced_recovery_notes: 'NULL' },
    posting: (job, p) => ({
      type: 'refund',
      points: p.points as number,
      apiKeyId: (p as Caller).apiKeyId,
      description: `Refund of the XLSX Advanced conversion of job ${job.id}`,
      idempotencyKey: `xlsx-advanced:${job.xlsxAdvancedJobId}:refund`,
    }),
  }),
  finishAdvanced: declare<{ conversionId: string; path: string }>({
    field: 'xlsx_advanced_status',
    from: ['processing'],
    to: 'done',
    when: 'xlsx_advanced_job_id = :conversionId',
    set: { xlsx_advanced_path: ':path', xlsx_advanced_refundable: 'false' },
    event: 'xlsx_advanced',
  }),
  /** The run failed (or its worker or queue gave up on it): retry for free or refund. */
  failAdvanced: declare<{ conversionId: string; notes: string }>({
    field: 'xlsx_advanced_status',
    from: ['processing'],
    to: 'error',
    when: 'xlsx_advanced_job_id = :conversionId',
    set: { xlsx_advanced_refundable: 'true', xlsx_advanced_recovery_notes: ':notes' },
    event: 'xlsx_advanced',
  }),
} as const;

export type TransitionName = keyof typeof TRANSITIONS;
export type TransitionParams<N extends TransitionName> = NonNullable<(typeof TRANSITIONS)[N]['params']>;
