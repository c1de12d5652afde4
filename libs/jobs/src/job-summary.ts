import { bigintNumber, type JobConversionEntity, type JobEntity } from '@docconv/db';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** What a job's record on the wire is made of: its own columns and the state of its conversions. */
export type JobSummary = Pick<
  JobEntity,
  | 'id'
  | 'status'
  | 'ocrModel'
  | 'ocrEngine'
  | 'pageFurniture'
  | 'htmlContent'
  | 'pageEvents'
  | 'fileType'
  | 'filename'
  | 'totalPages'
  | 'donePages'
  | 'totalFiles'
  | 'doneFiles'
  | 'imageCount'
  | 'mediaDurationSeconds'
  | 'doneMediaSeconds'
  | 'quotedPoints'
  | 'costPoints'
  | 'refundedPoints'
  | 'deliveredPages'
  | 'failedPages'
  | 'refundedPages'
  | 'refundable'
  | 'retryCount'
  | 'errorLog'
  | 'createdAt'
  | 'finishedAt'
> & { conversions: Pick<JobConversionEntity, 'format' | 'status' | 'runId' | 'refundable' | 'notes'>[] };

/**
 * A user's job as a `JobSummary`, in one statement returning one JSON column: the fields named as
 * the summary names them and the conversions as a JSON array (empty when there are none). One
 * column rather than twenty keeps the client's per-row work (a parser per column, a date parse
 * per timestamp) to one JSON.parse. Bigints travel as text, timestamps as ISO 8601 with offset.
 * $1 the job, $2 its owner.
 */
export const JOB_SUMMARY_SQL = `
SELECT json_build_object('id', j.id, 'status', j.status, 'ocrModel', j.ocr_model, 'ocrEngine', j.ocr_engine,
  'pageFurniture', j.page_furniture, 'htmlContent', j.html_content, 'pageEvents', j.page_events, 'fileType', j.file_type, 'filename', j.filename, 'totalPages', j.total_pages, 'donePages', j.done_pages,
  'totalFiles', j.total_files, 'doneFiles', j.done_files, 'imageCount', j.image_count,
  'mediaDurationSeconds', j.media_duration_seconds, 'doneMediaSeconds', j.done_media_seconds,
  'quotedPoints', j.quoted_points::text, 'costPoints', j.cost_points::text, 'refundedPoints', j.refunded_points::text,
  'deliveredPages', j.delivered_pages, 'failedPages', j.failed_pages, 'refundedPages', j.refunded_pages,
  'refundable', j.refundable,
  'retryCount', j.retry_count, 'errorLog', j.error_log, 'createdAt', j.created_at, 'finishedAt', j.finished_at,
  'conversions', COALESCE((SELECT json_agg(json_build_object('format', c.format, 'status', c.status,
    'runId', c.run_id, 'refundable', c.refundable, 'notes', c.notes)) FROM job_conversions c WHERE c.job_id = j.id),
    '[]')) AS summary
FROM jobs j WHERE j.id = $1 AND j.user_id = $2`;

/**
 * The name `JOB_SUMMARY_SQL` is prepared under on each pooled connection: PostgreSQL parses and
 * plans it once per connection instead of on every read of a job.
 */
export const JOB_SUMMARY_STATEMENT = 'docconv_job_summary';

/** The JSON of `JOB_SUMMARY_SQL`: bigints as text, timestamps as ISO 8601 text. */
export type JobSummaryRow = Omit<
  JobSummary,
  'quotedPoints' | 'costPoints' | 'refundedPoints' | 'createdAt' | 'finishedAt'
> & {
  quotedPoints: string;
  costPoints: string;
  refundedPoints: string;
  createdAt: string;
  finishedAt: string | null;
};

/** The JSON of `JOB_SUMMARY_SQL` as a summary, its bigints and timestamps read as the entity reads them. */
export function toJobSummary(row: JobSummaryRow): JobSummary {
  return {
    ...row,
    quotedPoints: bigintNumber.from(row.quotedPoints) as number,
    costPoints: bigintNumber.from(row.costPoints) as number,
    refundedPoints: bigintNumber.from(row.refundedPoints) as number,
    createdAt: new Date(row.createdAt),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt),
  };
}

/**
 * The user's job as a summary, or null when it is not theirs or does not exist. Read through the
 * data source's own pg pool as a named prepared statement (TypeORM's `query` cannot name one).
 */
export async function readJobSummary(
  dataSource: DataSource,
  jobId: string,
  userId: string,
): Promise<JobSummary | null> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const { rows } = await pool.query<{ summary: JobSummaryRow }>({
    name: JOB_SUMMARY_STATEMENT,
    text: JOB_SUMMARY_SQL,
    values: [jobId, userId],
  });
  return rows.length > 0 ? toJobSummary(rows[0].summary) : null;
}
