import { bigintNumber, type JobConversionEntity, type JobEntity } from '@docconv/db';

/** What a job's record on the wire is made of: its own columns and the state of its conversions. */
export type JobSummary = Pick<
  JobEntity,
  | 'id'
  | 'status'
  | 'ocrModel'
  | 'ocrEngine'
  | 'fileType'
  | 'filename'
  | 'totalPages'
  | 'donePages'
  | 'totalFiles'
  | 'doneFiles'
  | 'imageCount'
  | 'mediaDurationSeconds'
  | 'doneMediaSeconds'
  | 'costPoints'
  | 'refundedPoints'
  | 'refundable'
  | 'retryCount'
  | 'errorLog'
  | 'createdAt'
  | 'finishedAt'
> & { conversions: Pick<JobConversionEntity, 'format' | 'status' | 'runId' | 'refundable' | 'notes'>[] };

/**
 * A user's job as a `JobSummary`, in one statement: the columns named as the summary names them
 * and the conversions as a JSON array (empty when there are none). $1 the job, $2 its owner.
 */
export const JOB_SUMMARY_SQL = `
SELECT j.id, j.status, j.ocr_model AS "ocrModel", j.ocr_engine AS "ocrEngine", j.file_type AS "fileType",
  j.filename, j.total_pages AS "totalPages", j.done_pages AS "donePages", j.total_files AS "totalFiles",
  j.done_files AS "doneFiles", j.image_count AS "imageCount", j.media_duration_seconds AS "mediaDurationSeconds",
  j.done_media_seconds AS "doneMediaSeconds", j.cost_points AS "costPoints", j.refunded_points AS "refundedPoints",
  j.refundable, j.retry_count AS "retryCount", j.error_log AS "errorLog", j.created_at AS "createdAt",
  j.finished_at AS "finishedAt",
  COALESCE((SELECT json_agg(json_build_object('format', c.format, 'status', c.status, 'runId', c.run_id,
    'refundable', c.refundable, 'notes', c.notes)) FROM job_conversions c WHERE c.job_id = j.id), '[]') AS conversions
FROM jobs j WHERE j.id = $1 AND j.user_id = $2`;

/** A row of `JOB_SUMMARY_SQL`: PostgreSQL's bigints arrive as strings. */
export type JobSummaryRow = Omit<JobSummary, 'costPoints' | 'refundedPoints'> & {
  costPoints: string;
  refundedPoints: string;
};

/** A row of `JOB_SUMMARY_SQL` as a summary, its bigints read as the entity reads them. */
export function toJobSummary(row: JobSummaryRow): JobSummary {
  return {
    ...row,
    costPoints: bigintNumber.from(row.costPoints) as number,
    refundedPoints: bigintNumber.from(row.refundedPoints) as number,
  };
}
