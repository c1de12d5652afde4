import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './column-types';
import type { JobEntity } from './job.entity';

export const CONVERSION_FORMATS = ['xlsx_basic', 'xlsx_advanced', 'docx', 'pptx', 'hwpx'] as const;
export type ConversionFormat = (typeof CONVERSION_FORMATS)[number];

/** Where a conversion stands: running (XLSX Advanced only), its file made, failed, or refunded after failing. */
export type ConversionStatus = 'processing' | 'done' | 'error' | 'refunded';

/**
 * One conversion of a finished job's Markdown to an office file, one row per format. DOCX,
 * PPTX and XLSX Basic are rendered in one go (the row appears `done`); an XLSX Advanced run
 * goes through `processing`, and after a failure may be retried (a new attempt) or refunded.
 * The contract's `xlsx_advanced_*` fields of a job are this table's XLSX Advanced row.
 */
@Entity({ name: 'job_conversions' })
export class JobConversionEntity {
  @PrimaryColumn({ name: 'job_id', type: 'uuid' }) jobId!: string;
  @PrimaryColumn({ type: 'text' }) format!: ConversionFormat;
  @Column({ type: 'text' }) status!: ConversionStatus;
  /** The run's id (the contract's `xlsx_advanced_job_id`), new when a run starts after a refund. */
  @Column({ name: 'run_id', type: 'uuid' }) runId!: string;
  /** Runs started so far (a retry is another one): each run's end is one webhook event. */
  @Column({ type: 'integer' }) attempt!: number;
  @Column({ type: 'boolean' }) refundable!: boolean;
  /** Why the last run failed and what to do next. */
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  /** The file in storage once made. */
  @Column({ type: 'text', nullable: true }) path!: string | null;
  /** Points the conversion charged (given back by a refund). */
  @Column({ name: 'charge_points', type: 'bigint', transformer: bigintNumber }) chargePoints!: number;
  @Column({ name: 'started_at', type: 'timestamptz' }) startedAt!: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;

  @ManyToOne('JobEntity', 'conversions', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id' })
  job?: JobEntity;
}

/** The job's conversion to `format`, if one was ever asked for. */
export function conversionOf<C extends { format: ConversionFormat }>(
  job: { conversions?: C[] },
  format: ConversionFormat,
): C | undefined {
  return job.conversions?.find((c) => c.format === format);
}
