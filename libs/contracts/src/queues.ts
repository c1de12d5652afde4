/**
 * Queues, job names and their payloads: the whole contract between the API (producer) and
 * the worker (consumer). Payloads carry ids only; the worker reloads state from PostgreSQL.
 *
 * To add a job: add its name and payload to `JobPayloads`, list it under its queue in
 * `QUEUE_JOBS`, and give the worker a handler. The worker refuses to boot while a job name
 * has no handler.
 */
export const QUEUE_NAMES = ['parse', 'office', 'speech', 'conversions', 'maintenance', 'webhooks'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * A confirmed job's message, by the worker pool its files need (see `jobQueue` in
 * @docconv/documents): documents, text layers and OCR on `parse`; files LibreOffice reads on
 * `office`; recordings on `speech`. The three are one handler; only who may take them differs.
 */
export const PARSE_JOBS = { parse: 'parse.run', office: 'office.run', speech: 'speech.run' } as const;
export type ParseQueue = keyof typeof PARSE_JOBS;

export interface JobPayloads {
  /** Turn a confirmed job's inputs into its Markdown result (attempt `retry`: the job's retry count). */
  'parse.run': { jobId: string; retry: number };
  /** `parse.run` of a job with a file LibreOffice reads (DOC, XLS, PPT, OpenDocument, RTF). */
  'office.run': { jobId: string; retry: number };
  /** `parse.run` of a job with a recording (audio or video) to transcribe. */
  'speech.run': { jobId: string; retry: number };
  /**
   * Read pages `first`…`last` of a large PDF whose parse was fanned out: one child of the job's
   * `parse.assemble`, run by any worker, retried alone.
   */
  'parse.range': { jobId: string; retry: number; first: number; last: number };
  /** Lay out a fanned-out parse job's page ranges as one document and end the job, once every range has ended. */
  'parse.assemble': { jobId: string; retry: number; rangePages: number };
  /** Build the XLSX Advanced workbook of a finished job (one conversion run, `conversionId`; `attempt`: the user's retries of it). */
  'convert.xlsx-advanced': { jobId: string; conversionId: string; attempt: number };
  /** Cancel pending jobs whose quote has expired, giving their free pages back. */
  'maintenance.expire-pending': Record<string, never>;
  /**
   * Send what the database says is due and the queue does not hold: outbox messages left
   * unsent, queued parse jobs, XLSX Advanced runs and webhook deliveries whose messages Redis
   * lost; end, as refundable errors, runs the queue gave up on.
   */
  'maintenance.sweep': Record<string, never>;
  /** Fail, as refundable, parse jobs and XLSX Advanced runs past the maximum run time (their workers died). */
  'maintenance.fail-overdue': Record<string, never>;
  /** Forget workers whose heartbeat stopped long ago (scheduled by every worker; runs once per period). */
  'maintenance.prune-heartbeats': Record<string, never>;
  /** Make attempt number `attempt` (from 1) at sending one webhook delivery to its callback URL. */
  'webhook.deliver': { deliveryId: string; attempt: number };
}

export type JobName = keyof JobPayloads;
export type JobPayload<N extends JobName> = JobPayloads[N];

export const QUEUE_JOBS: { readonly [Q in QueueName]: readonly JobName[] } = {
  parse: ['parse.run', 'parse.range', 'parse.assemble'],
  office: ['office.run'],
  speech: ['speech.run'],
  conversions: ['convert.xlsx-advanced'],
  maintenance: [
    'maintenance.prune-heartbeats',
    'maintenance.expire-pending',
    'maintenance.sweep',
    'maintenance.fail-overdue',
  ],
  webhooks: ['webhook.deliver'],
};

/** Repeating jobs of the maintenance queue: every worker upserts these schedules at boot; one copy of each runs. */
export const SCHEDULED_JOBS: readonly { name: JobName; everyMs: number }[] = [
  { name: 'maintenance.prune-heartbeats', everyMs: 60_000 },
  { name: 'maintenance.expire-pending', everyMs: 60_000 },
  { name: 'maintenance.sweep', everyMs: 15_000 },
  { name: 'maintenance.fail-overdue', everyMs: 60_000 },
];

/**
 * The BullMQ job id of each message, from its payload: one per (parse job, retry) and its ranges, per
 * (XLSX Advanced run, attempt) and per (webhook delivery, attempt), so sending a message twice
 * queues it once. Scheduled maintenance jobs get their ids from their schedules.
 */
const QUEUE_JOB_IDS: { readonly [N in JobName]?: (payload: JobPayload<N>) => string } = {
  'parse.run': (p) => `parse-${p.jobId}-${p.retry}`,
  'office.run': (p) => `office-${p.jobId}-${p.retry}`,
  'speech.run': (p) => `speech-${p.jobId}-${p.retry}`,
  'parse.range': (p) => `parse-range-${p.jobId}-${p.retry}-${p.first}`,
  'parse.assemble': (p) => `parse-assemble-${p.jobId}-${p.retry}`,
  'convert.xlsx-advanced': (p) => `xlsx-advanced-${p.conversionId}-${p.attempt}`,
  'webhook.deliver': (p) => `webhook-${p.deliveryId}-${p.attempt}`,
};

export function queueJobId<N extends JobName>(name: N, payload: JobPayload<N>): string | undefined {
  return QUEUE_JOB_IDS[name]?.(payload);
}

export const JOB_NAMES: readonly JobName[] = QUEUE_NAMES.flatMap((queue) => QUEUE_JOBS[queue]);

export function queueOf(name: JobName): QueueName {
  const queue = QUEUE_NAMES.find((q) => QUEUE_JOBS[q].includes(name));
  if (!queue) throw new Error(`Job ${name} belongs to no queue`);
  return queue;
}

/** Delivery options shared by every producer, so retries behave the same wherever a job is sent. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** BullMQ's lowest priority (2^21); 1 is its highest. */
export const MAX_PRIORITY = 2_097_152;

/** Redis key (under the configured prefix) where each worker records when it was last alive. */
export const WORKER_HEARTBEAT_KEY = 'workers:heartbeat';
