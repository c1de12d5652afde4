import { Column, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import type { ParseQueue } from '@docconv/contracts';
import { bigintNumber } from './column-types';
import type { PageFurniture } from '@docconv/model';
import type { JobConversionEntity } from './job-conversion.entity';

export const JOB_STATUSES = ['pending', 'queued', 'processing', 'done', 'error', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type OcrModel = 'basic' | 'premium';
export type OcrEngine = 'tesseract' | 'easyocr' | 'rapidocr';

/** The cost object of the binding quote given at upload (spec 2.3), kept as it was shown. */
/** A member of an archive or e-mail that was not converted. */
export interface SkippedFileRecord {
  path: string;
  reason: string;
}

export interface Quote {
  pages: number;
  image_count: number;
  audio_seconds: number;
  video_seconds: number;
  ocr_model: OcrModel;
  free_pages_used: number;
  points: number;
  usd: string;
}

@Entity({ name: 'jobs' })
export class JobEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true }) apiKeyId!: string | null;
  @Column({ type: 'text' }) status!: JobStatus;
  @Column({ name: 'ocr_model', type: 'text' }) ocrModel!: OcrModel;
  @Column({ name: 'ocr_engine', type: 'text' }) ocrEngine!: OcrEngine;
  @Column({ name: 'file_type', type: 'text' }) fileType!: string;
  /** The queue of the worker pool its files need (`jobQueue`); its parse message goes there. */
  @Column({ name: 'parse_queue', type: 'text', default: 'parse' }) parseQueue!: ParseQueue;
  /** The display title; the title endpoint changes it. */
  @Column({ type: 'text' }) filename!: string;
  @Column({ name: 'total_pages', type: 'integer' }) totalPages!: number;
  @Column({ name: 'done_pages', type: 'integer' }) donePages!: number;
  @Column({ name: 'total_files', type: 'integer' }) totalFiles!: number;
  @Column({ name: 'done_files', type: 'integer' }) doneFiles!: number;
  @Column({ name: 'image_count', type: 'integer' }) imageCount!: number;
  @Column({ name: 'audio_seconds', type: 'integer' }) audioSeconds!: number;
  @Column({ name: 'video_seconds', type: 'integer' }) videoSeconds!: number;
  @Column({ name: 'media_duration_seconds', type: 'integer' }) mediaDurationSeconds!: number;
  /** Seconds of the job's recordings transcribed so far (progress of audio and video). */
  @Column({ name: 'done_media_seconds', type: 'integer', default: 0 }) doneMediaSeconds!: number;
  /** Of a parse fanned out over page ranges: each range's pages done, by its first page (`done_pages` is their sum). */
  @Column({ name: 'range_done_pages', type: 'jsonb', nullable: true }) rangeDonePages!: Record<string, number> | null;
  @Column({ name: 'docling_refinement', type: 'boolean' }) doclingRefinement!: boolean;
  @Column({ name: 'docling_refinement_pages', type: 'integer' }) doclingRefinementPages!: number;
  @Column({ type: 'integer' }) dpi!: number;
  /** What the upload asked for page furniture: `drop`, `keep` or `separate` (PAGE_FURNITURE of the model). */
  @Column({ name: 'page_furniture', type: 'text', default: 'drop' }) pageFurniture!: PageFurniture;
  /** What the upload asked to read of a web page: `main` or `full` (HTML_CONTENT of the documents library). */
  @Column({ name: 'html_content', type: 'text', default: 'main' }) htmlContent!: 'main' | 'full';
  /** Pages the current attempt has delivered as it was read (results/<job>/pages/<retry>/1…n). */
  @Column({ name: 'page_events', type: 'integer', default: 0 }) pageEvents!: number;
  @Column({ type: 'jsonb', nullable: true }) columns!: string[] | null;
  @Column({ type: 'text' }) prompt!: string;
  @Column({ type: 'jsonb' }) quote!: Quote;
  /** Members of the upload's archives and e-mails that were not converted, and why. */
  @Column({ name: 'skipped_files', type: 'jsonb', default: () => "'[]'::jsonb" }) skippedFiles!: SkippedFileRecord[];
  @Column({ name: 'quoted_points', type: 'bigint', transformer: bigintNumber }) quotedPoints!: number;
  @Column({ name: 'free_pages_used', type: 'integer' }) freePagesUsed!: number;
  /** Of `freePagesUsed`, those given back: of the pages not delivered, or all when the job was cancelled or refunded whole. */
  @Column({ name: 'free_pages_returned', type: 'integer', default: 0 }) freePagesReturned!: number;
  /** Points actually deducted (0 until confirmed). */
  @Column({ name: 'cost_points', type: 'bigint', transformer: bigintNumber }) costPoints!: number;
  @Column({ name: 'refunded_points', type: 'bigint', transformer: bigintNumber }) refundedPoints!: number;
  /** Pages and images delivered in the result (set when the job ends). */
  @Column({ name: 'delivered_pages', type: 'integer', default: 0 }) deliveredPages!: number;
  /** Pages and images that were not read (see the page report's `failure`). */
  @Column({ name: 'failed_pages', type: 'integer', default: 0 }) failedPages!: number;
  /** Pages and images whose price was given back: not read, never reached by a cancel, or all of them on a refund. */
  @Column({ name: 'refunded_pages', type: 'integer', default: 0 }) refundedPages!: number;
  @Column({ type: 'boolean' }) refundable!: boolean;
  @Column({ name: 'retry_count', type: 'integer' }) retryCount!: number;
  @Column({ name: 'error_log', type: 'text', nullable: true }) errorLog!: string | null;
  @Column({ name: 'result_path', type: 'text', nullable: true }) resultPath!: string | null;
  /** Where the job's end is reported (webhooks); null when the upload gave none. */
  @Column({ name: 'callback_url', type: 'text', nullable: true }) callbackUrl!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true }) confirmedAt!: Date | null;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true }) cancelledAt!: Date | null;
  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true }) refundedAt!: Date | null;
  /** When the owner cancelled the job while it was processing; the worker stops at the next page. */
  @Column({ name: 'cancel_requested_at', type: 'timestamptz', nullable: true }) cancelRequestedAt!: Date | null;
  /** The office files made from its Markdown (loaded with the job). */
  @OneToMany('JobConversionEntity', 'job', { eager: true }) conversions!: JobConversionEntity[];
}
