/**
 * Queues, job names and their payloads: the whole contract between the API (producer) and
 * the worker (consumer). Payloads carry ids only; the worker reloads state from PostgreSQL.
 *
 * To add a job: add its name and payload to `JobPayloads`, list it under its queue in
 * `QUEUE_JOBS`, and give the worker a handler. The worker refuses to boot while a job name
 * has no handler.
 */
export const QUEUE_NAMES = ['parse', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobPayloads {
  /** Turn a confirmed job's inputs into its Markdown result. */
  'parse.run': { jobId: string };
  /** Cancel pending jobs whose quote has expired, giving their free pages back. */
  'maintenance.expire-pending': Record<string, never>;
  /** Re-send queued jobs that the queue does not hold (a crash between commit and send). */
  'maintenance.sweep-queued': Record<string, never>;
  /** Fail, as refundable, jobs still processing past the maximum run time (their workers died). */
  'maintenance.fail-overdue': Record<string, never>;
  /** Forget workers whose heartbeat stopped long ago (scheduled by every worker; runs once per period). */
  'maintenance.prune-heartbeats': Record<string, never>;
}

export type JobName = keyof JobPayloads;
export type JobPayload<N extends JobName> = JobPayloads[N];

export const QUEUE_JOBS: { readonly [Q in QueueName]: readonly JobName[] } = {
  parse: ['parse.run'],
  maintenance: [
    'maintenance.prune-heartbeats',
    'maintenance.expire-pending',
    'maintenance.sweep-queued',
    'maintenance.fail-overdue',
  ],
};

/** Repeating jobs of the maintenance queue: every worker upserts these schedules at boot; one copy of each runs. */
export const SCHEDULED_JOBS: readonly { name: JobName; everyMs: number }[] = [
  { name: 'maintenance.prune-heartbeats', everyMs: 60_000 },
  { name: 'maintenance.expire-pending', everyMs: 60_000 },
  { name: 'maintenance.sweep-queued', everyMs: 15_000 },
  { name: 'maintenance.fail-overdue', everyMs: 60_000 },
];

/** BullMQ job id of a parse attempt: one per (job, retry), so sending it twice queues it once. */
export function parseQueueJobId(jobId: string, retryCount: number): string {
  return `parse-${jobId}-${retryCount}`;
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

/** Redis key (under the configured prefix) where each worker records when it was last alive. */
export const WORKER_HEARTBEAT_KEY = 'workers:heartbeat';
