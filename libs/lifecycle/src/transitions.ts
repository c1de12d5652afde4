import type { LedgerEntry } from '@docconv/billing';
import type { ConversionFormat, ConversionStatus, JobConversionEntity, JobEntity, JobStatus } from '@docconv/db';
import { PARSE_JOBS } from '@docconv/contracts';
import type { OutboxMessage } from './outbox';

/** How many times a failed job may be re-dispatched for free. */
export const MAX_RETRIES = 3;

/** What a job's end is heard as: its own status, or the status of one of its XLSX Advanced runs. */
export type EventKind = 'status' | 'xlsx_advanced';

/** A ledger row a move posts in its own transaction; the user is the job's. */
export type Posting = Omit<LedgerEntry, 'userId' | 'jobId'>;

/** What a move's consequences are computed from: the job as moved, its conversion (for a conversion's move), the parameters. */
export interface MoveContext {
  job: JobEntity;
  conversion?: JobConversionEntity;
  params: Record<string, unknown>;
}

/**
 * One declared move. `set`, `insert` and `when` are SQL over the moved row, in which `:name`
 * stands for the move's parameter `name`. The move happens only if the row's status is one of
 * `from` (null: there is no row yet, and `insert` gives the new row's columns) and `when`
 * holds; then, in the same transaction, its ledger row is posted and its messages written to
 * the outbox.
 */
export interface TransitionSpec {
  /** What moves: the job (`jobs.status`) or one of its conversions (`job_conversions.status`). */
  subject: 'job' | 'conversion';
  from: readonly (string | null)[];
  to: string;
  set?: Readonly<Record<string, string>>;
  /** A conversion's columns when the move creates its row. */
  insert?: Readonly<Record<string, string>>;
  when?: string;
  /** What live subscribers hear of the move; when the move ends the job or run, its webhook too. */
  event?: EventKind;
  /** The ledger row of the move; null posts nothing. */
  posting?: (moved: MoveContext) => Posting | null;
  /** The queue message the move sends once committed. */
  send?: (moved: MoveContext) => OutboxMessage;
}

/** A move's states are its subject's: a job moves between job statuses, a conversion between conversion statuses. */
type Declared = TransitionSpec &
  (
    | { subject: 'job'; from: readonly JobStatus[]; to: JobStatus }
    | { subject: 'conversion'; from: readonly (ConversionStatus | null)[]; to: ConversionStatus }
  );

/**
 * A move with the type of its parameters `P` attached, its states kept as the literals written
 * (so the states and moves of moves.ts are read off its type): `declare<P>()({ … })`.
 */
const declare =
  <P extends Record<string, unknown> = Record<string, never>>() =>
  <const S extends Declared>(spec: S): S & { readonly params?: P } =>
    spec;

const parseMessage = ({ job }: MoveContext): OutboxMessage => ({
  kind: 'enqueue',
  name: PARSE_JOBS[job.parseQueue],
  payload: { jobId: job.id, retry: job.retryCount },
});

/** An XLSX Advanced run's message: the run's attempt (a start, a retry) makes it new. */
const runMessage = ({ job, conversion }: MoveContext): OutboxMessage => ({
  kind: 'enqueue',
  name: 'convert.xlsx-advanced',
  payload: { jobId: job.id, conversionId: conversion!.runId, attempt: conversion!.attempt },
});

/** Who asked for a move that costs or returns money: the key the ledger row names. */
type Caller = { apiKeyId: string | null };

/**
 * What a job did not deliver: the points its pages cost, and which pages they were (for the ledger
 * row); the count of its pages and images delivered, not read (failed) and given back (refunded);
 * and the free pages its quote reserved for them, given back with their points.
 */
export type Undelivered = {
  points: number;
  pages: string;
  delivered: number;
  failed: number;
  refunded: number;
  freePages: number;
};

/** The page counts and free pages a job's end records (see Undelivered). */
const PAGE_OUTCOMES = {
  delivered_pages: ':delivered',
  failed_pages: ':failed',
  refunded_pages: ':refunded',
  free_pages_returned: ':freePages',
};

/** A job cancelled before it ran, expired or refunded whole gives back every free page it reserved. */
const ALL_FREE_PAGES_RETURNED = { free_pages_returned: 'free_pages_used' };

/** A ledger row moving `points`, or none when there are none to move. */
const ledgerRow = (
  type: 'spend' | 'refund',
  points: number,
  apiKeyId: string | null,
  description: string,
  idempotencyKey: string,
): Posting | null => (points > 0 ? { type, points, apiKeyId, description, idempotencyKey } : null);

const undeliveredRefund = (job: JobEntity, p: Undelivered, idempotencyKey: string): Posting | null =>
  ledgerRow('refund', p.points, job.apiKeyId, `Job ${job.id}: ${p.pages}`, idempotencyKey);

/** How a conversion is named to people. */
export const CONVERSION_LABELS: Record<ConversionFormat, string> = {
  xlsx_basic: 'XLSX Basic',
  xlsx_advanced: 'XLSX Advanced',
  docx: 'DOCX',
  pptx: 'PPTX',
  hwpx: 'HWPX',
};

/**
 * Every way a job's state and its conversions' change, declared once. `JobLifecycle.move` is
 * the only code that applies them, and so the only code that writes `jobs.status` and
 * `job_conversions`.
 */
export const TRANSITIONS = {
  // ---- the job ---------------------------------------------------------------------------
  /** The user accepts the quote: it is charged and queued. */
  confirm: declare<Caller>()({
    subject: 'job',
    from: ['pending'],
    to: 'queued',
    when: 'expires_at > now()',
    set: { confirmed_at: 'now()', cost_points: 'quoted_points' },
    event: 'status',
    posting: ({ job, params: p }) =>
      ledgerRow(
        'spend',
        job.costPoints,
        (p as Caller).apiKeyId,
        `Job ${job.id}: ${job.filename}`,
        `job:${job.id}:confirm`,
      ),
    send: parseMessage,
  }),
  /** A pending job is cancelled for nothing; a queued one is refunded in full. */
  cancel: declare<Caller>()({
    subject: 'job',
    from: ['pending', 'queued'],
    to: 'cancelled',
    set: {
      cancelled_at: 'now()',
      refunded_points: 'cost_points',
      refunded_at: 'CASE WHEN cost_points > 0 THEN now() END',
      refunded_pages: 'CASE WHEN confirmed_at IS NOT NULL THEN total_pages + image_count ELSE 0 END',
      ...ALL_FREE_PAGES_RETURNED,
    },
    event: 'status',
    posting: ({ job, params: p }) =>
      ledgerRow(
        'refund',
        job.costPoints,
        (p as Caller).apiKeyId,
        `Job ${job.id} cancelled before processing`,
        `job:${job.id}:refund`,
      ),
  }),
  /** A quote nobody confirmed within its validity. */
  expire: declare()({
    subject: 'job',
    from: ['pending'],
    to: 'cancelled',
    when: 'expires_at <= now()',
    set: {
      cancelled_at: 'now()',
      error_log: `'The quote expired after 24 hours without confirmation. Upload the files again for a new quote.'`,
      ...ALL_FREE_PAGES_RETURNED,
    },
    event: 'status',
  }),
  /** A worker takes the job (again, after a crash: the attempt starts over). */
  start: declare()({
    subject: 'job',
    from: ['queued', 'processing'],
    to: 'processing',
    set: {
      started_at: 'coalesce(started_at, now())',
      done_pages: '0',
      done_files: '0',
      done_media_seconds: '0',
      range_done_pages: 'NULL',
    },
    event: 'status',
  }),
  /** The job is converted; the price of pages that could not be read (`undelivered`) is given back at once. */
  finish: declare<{ resultPath: string } & Undelivered>()({
    subject: 'job',
    from: ['processing'],
    to: 'done',
    set: {
      finished_at: 'now()',
      result_path: ':resultPath',
      done_pages: 'total_pages',
      done_files: 'total_files',
      done_media_seconds: 'media_duration_seconds',
      refunded_points: 'refunded_points + :points',
      ...PAGE_OUTCOMES,
    },
    event: 'status',
    posting: ({ job, params: p }) => undeliveredRefund(job, p as Undelivered, `job:${job.id}:undelivered`),
  }),
  /**
   * The owner cancels while a worker converts. The worker asks after each page (and each file)
   * whether this was done: what finishes after it is not delivered, and the job stops there.
   */
  requestCancel: declare()({
    subject: 'job',
    from: ['processing'],
    to: 'processing',
    when: 'cancel_requested_at IS NULL',
    set: { cancel_requested_at: 'now()' },
  }),
  /**
   * The worker stopped a cancelled job: the pages finished before the cancel stay downloadable,
   * the rest (with their free pages) is refunded.
   */
  stopCancelled: declare<{ resultPath: string | null } & Undelivered>()({
    subject: 'job',
    from: ['processing'],
    to: 'cancelled',
    when: 'cancel_requested_at IS NOT NULL',
    set: {
      cancelled_at: 'now()',
      finished_at: 'now()',
      result_path: ':resultPath',
      refunded_points: ':points',
      refunded_at: 'CASE WHEN :points > 0 THEN now() END',
      ...PAGE_OUTCOMES,
    },
    event: 'status',
    posting: ({ job, params: p }) => undeliveredRefund(job, p as Undelivered, `job:${job.id}:refund`),
  }),
  /** The job could not be converted: the user may retry it or take a refund. */
  fail: declare<{ reason: string; failed: number }>()({
    subject: 'job',
    from: ['processing'],
    to: 'error',
    set: {
      refundable: 'true',
      error_log: ':reason',
      finished_at: 'now()',
      delivered_pages: '0',
      failed_pages: ':failed',
    },
    event: 'status',
  }),
  /** A job still processing past the time a job may run (its worker died). */
  overdue: declare<{ seconds: number }>()({
    subject: 'job',
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
  retry: declare()({
    subject: 'job',
    from: ['error'],
    to: 'queued',
    when: `refundable AND retry_count < ${MAX_RETRIES}`,
    set: {
      retry_count: 'retry_count + 1',
      error_log: 'NULL',
      refundable: 'false',
      done_pages: '0',
      done_files: '0',
      range_done_pages: 'NULL',
      started_at: 'NULL',
      finished_at: 'NULL',
    },
    event: 'status',
    send: parseMessage,
  }),
  /** Every point deducted for a failed job, returned once; the job stays `error`. */
  refund: declare<Caller>()({
    subject: 'job',
    from: ['error'],
    to: 'error',
    when: 'refundable',
    set: {
      refundable: 'false',
      refunded_points: 'cost_points',
      refunded_at: 'now()',
      refunded_pages: 'total_pages + image_count',
      ...ALL_FREE_PAGES_RETURNED,
    },
    posting: ({ job, params: p }) =>
      ledgerRow('refund', job.costPoints, (p as Caller).apiKeyId, `Refund of job ${job.id}`, `job:${job.id}:refund`),
  }),

  // ---- its conversions -----------------------------------------------------------------
  /** DOCX, PPTX or XLSX Basic made in one go: the first of each format is recorded and charged. */
  deliverConversion: declare<Caller & { path: string; points: number }>()({
    subject: 'conversion',
    from: [null],
    to: 'done',
    insert: { run_id: 'gen_random_uuid()', path: ':path', charge_points: ':points', finished_at: 'now()' },
    posting: ({ job, conversion, params: p }) =>
      ledgerRow(
        'spend',
        p.points as number,
        (p as Caller).apiKeyId,
        `${CONVERSION_LABELS[conversion!.format]} of job ${job.id}`,
        `job:${job.id}:convert:${conversion!.format}`,
      ),
  }),
  /** A new XLSX Advanced run (never asked, or refunded), charged as it starts. */
  startAdvanced: declare<Caller & { runId: string; points: number }>()({
    subject: 'conversion',
    from: [null, 'refunded'],
    to: 'processing',
    insert: { run_id: ':runId', charge_points: ':points' },
    set: {
      run_id: ':runId',
      attempt: 'job_conversions.attempt + 1',
      refundable: 'false',
      notes: 'NULL',
      path: 'NULL',
      charge_points: ':points',
      started_at: 'now()',
      finished_at: 'NULL',
    },
    posting: ({ job, conversion, params: p }) =>
      ledgerRow(
        'spend',
        p.points as number,
        (p as Caller).apiKeyId,
        `XLSX Advanced of job ${job.id}`,
        `xlsx-advanced:${conversion!.runId}`,
      ),
    send: runMessage,
  }),
  /** The failed run again, free. */
  retryAdvanced: declare()({
    subject: 'conversion',
    from: ['error'],
    to: 'processing',
    when: 'refundable',
    set: { attempt: 'attempt + 1', refundable: 'false', notes: 'NULL', started_at: 'now()', finished_at: 'NULL' },
    send: runMessage,
  }),
  /** A failed run's charge, returned once. */
  refundAdvanced: declare<Caller>()({
    subject: 'conversion',
    from: ['error'],
    to: 'refunded',
    when: 'refundable',
    set: { refundable: 'false', notes: 'NULL' },
    posting: ({ job, conversion, params: p }) =>
      ledgerRow(
        'refund',
        conversion!.chargePoints,
        (p as Caller).apiKeyId,
        `Refund of the XLSX Advanced conversion of job ${job.id}`,
        `xlsx-advanced:${conversion!.runId}:refund`,
      ),
  }),
  /** The workbook is stored; its notes list printed totals its rows do not add up to (null when all do). */
  finishAdvanced: declare<{ runId: string; path: string; notes: string | null }>()({
    subject: 'conversion',
    from: ['processing'],
    to: 'done',
    when: 'run_id = :runId',
    set: { path: ':path', refundable: 'false', notes: ':notes', finished_at: 'now()' },
    event: 'xlsx_advanced',
  }),
  /** The run failed (or its worker or queue gave up on it): retry for free or refund. */
  failAdvanced: declare<{ runId: string; notes: string }>()({
    subject: 'conversion',
    from: ['processing'],
    to: 'error',
    when: 'run_id = :runId',
    set: { refundable: 'true', notes: ':notes', finished_at: 'now()' },
    event: 'xlsx_advanced',
  }),
} as const;

export type TransitionName = keyof typeof TRANSITIONS;
export type TransitionParams<N extends TransitionName> = NonNullable<(typeof TRANSITIONS)[N]['params']>;
