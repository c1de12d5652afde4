import { conversionOf, type JobEntity, type WebhookEventType } from '@docconv/db';

/** What ended: the job itself, or one XLSX Advanced run of it (as `JobEvents` tells it). */
export type EndedKind = 'status' | 'xlsx_advanced';

/** The event a job's current state stands for, and which occurrence of it this is. */
export interface EndedEvent {
  type: WebhookEventType;
  /** `attempt-<retry_count>` for the job's own end, `xlsx-run-<n>` for an XLSX Advanced run's. */
  occurrence: string;
}

/** The state of the job an event reports, with the job record's field names (spec 2.2). */
export interface WebhookJobSnapshot {
  job_id: string;
  status: string;
  filename: string;
  file_type: string;
  total_pages: number;
  done_pages: number;
  total_files: number;
  done_files: number;
  cost_points: number;
  error_log: string | null;
  created_at: string;
  finished_at: string | null;
  downloadable: boolean;
  refundable: boolean;
  retry_count: number;
  xlsx_advanced_status: string | null;
  xlsx_advanced_job_id: string | null;
  xlsx_advanced_refundable: boolean;
  xlsx_advanced_recovery_notes: string | null;
}

/** The body of a delivery. `id` is the event's id, also sent as `Docconv-Delivery`. */
export interface WebhookPayload {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: { job: WebhookJobSnapshot };
}

/**
 * The event the job's stored state stands for, or null when it stands for none (the job is
 * still running, or a new XLSX Advanced run has already started). Each attempt of a job ends
 * once and each XLSX Advanced run ends once, which is what makes the occurrence unique.
 */
export function endedEvent(kind: EndedKind, job: JobEntity): EndedEvent | null {
  switch (kind) {
    case 'status':
      if (job.status !== 'done' && job.status !== 'error' && job.status !== 'cancelled') return null;
      return { type: `job.${job.status}`, occurrence: `attempt-${job.retryCount}` };
    case 'xlsx_advanced': {
      const run = conversionOf(job, 'xlsx_advanced');
      if (run?.status !== 'done' && run?.status !== 'error') return null;
      return { type: `xlsx_advanced.${run.status}`, occurrence: `xlsx-run-${run.attempt}` };
    }
  }
}

export function webhookPayload(id: string, type: WebhookEventType, job: JobEntity, at: Date): WebhookPayload {
  return { id, type, created_at: wireTime(at), data: { job: jobSnapshot(job) } };
}

function jobSnapshot(job: JobEntity): WebhookJobSnapshot {
  const run = conversionOf(job, 'xlsx_advanced');
  return {
    job_id: job.id,
    status: job.status,
    filename: job.filename,
    file_type: job.fileType,
    total_pages: job.totalPages,
    done_pages: job.donePages,
    total_files: job.totalFiles,
    done_files: job.doneFiles,
    cost_points: job.costPoints,
    error_log: job.errorLog,
    created_at: wireTime(job.createdAt),
    finished_at: job.finishedAt && wireTime(job.finishedAt),
    downloadable: job.status === 'done',
    refundable: job.refundable,
    retry_count: job.retryCount,
    xlsx_advanced_status: run?.status ?? null,
    xlsx_advanced_job_id: run?.runId ?? null,
    xlsx_advanced_refundable: run?.refundable ?? false,
    xlsx_advanced_recovery_notes: run?.notes ?? null,
  };
}

/** Timestamps on the wire: ISO 8601 in UTC without an offset, as everywhere in the API. */
export function wireTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
