import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PAGE_FAILURES } from '@docconv/contracts';
import { conversionOf, JOB_STATUSES, type JobEntity, type JobFileEntity, type JobStatus } from '@docconv/db';
import {
  ACCEPTED_FORMATS,
  acceptedFormat,
  PRINTED_PAGE_CHARACTERS,
  TEXT_PAGE_CHARACTERS,
  type FileKind,
} from '@docconv/documents';
import { CONVERSION_FORMATS, units, type ConversionFormat, type JobSummary } from '@docconv/jobs';
import { QueryInt } from '../common/query-int';
import { NO_CONTROL_CHARACTERS, wireTime } from '../common/wire';
import { HTML_CONTENT_PROPERTY, PAGE_FURNITURE_PROPERTY } from './upload-choices';

export class TitleDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  @Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' })
  title!: string;
}

export class ActionDto {
  @ApiProperty({ enum: ['retry', 'refund'] })
  @IsIn(['retry', 'refund'], { message: 'must be retry or refund' })
  action!: 'retry' | 'refund';
}

export class ConvertDto {
  @ApiProperty({ enum: CONVERSION_FORMATS })
  @IsIn(CONVERSION_FORMATS, { message: `must be one of ${CONVERSION_FORMATS.join(', ')}` })
  format!: ConversionFormat;
}

/** What a job's download gives besides conversions: the Markdown, its structured result, or both with the images in a zip. */
export const RESULT_FORMATS = ['md', 'json', 'zip'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

export class DownloadQuery {
  @ApiPropertyOptional({
    enum: [...RESULT_FORMATS, ...CONVERSION_FORMATS],
    default: 'md',
    description:
      'md (default): the Markdown. json: the structured result (typed blocks with their [start, end) in the Markdown, page and box; ' +
      'schema StructuredResult). zip: result.md, result.json and the images they link. Otherwise a format already produced by ' +
      'POST /jobs/{job_id}/convert. md, json and zip are free.',
  })
  @IsOptional()
  @IsIn([...RESULT_FORMATS, ...CONVERSION_FORMATS], {
    message: `must be one of ${[...RESULT_FORMATS, ...CONVERSION_FORMATS].join(', ')}`,
  })
  format?: ResultFormat | ConversionFormat;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description:
      'true: the Markdown of the pages finished so far, while the job is still processing (or once it has ended), joined in order; ' +
      'the X-Delivered-Pages header says how many were delivered and X-Result-Complete whether that is the whole result.',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  partial?: 'true' | 'false';
}

export class PreviewQuery {
  @QueryInt({
    min: 1,
    default: 1,
    description: "Which of the job's files, by its number in the job (GET /jobs/{job_id}/files)",
  })
  file: number = 1;
}

export class ListJobsQuery {
  @ApiPropertyOptional({ enum: JOB_STATUSES })
  @IsOptional()
  @IsIn(JOB_STATUSES, { message: `must be one of ${JOB_STATUSES.join(', ')}` })
  status?: JobStatus;

  @QueryInt({ min: 1, max: 100, default: 20 })
  limit: number = 20;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}

export class CostResponse {
  @ApiProperty() pages!: number;
  @ApiProperty() image_count!: number;
  @ApiProperty() audio_seconds!: number;
  @ApiProperty() video_seconds!: number;
  @ApiProperty({ enum: ['basic', 'premium'] }) ocr_model!: string;
  @ApiProperty() free_pages_used!: number;
  @ApiProperty({ description: 'Points deducted on confirm (milli-USD).' }) points!: number;
  @ApiProperty({ example: '$1.234' }) usd!: string;
}

export class JobFileEntry {
  @ApiProperty({
    description: 'The file as the upload named it; members of archives and e-mails as `<container>/<member>`',
  })
  path!: string;
  @ApiProperty({
    enum: ACCEPTED_FORMATS.map((f) => f.kind),
    description: `The file's exact format, decided from its content: ${ACCEPTED_FORMATS.map((f) => `\`${f.kind}\` ${f.label}`).join(', ')}`,
  })
  format!: string;
  @ApiProperty({ example: 'application/pdf' }) mime_type!: string;
  @ApiProperty({
    description: "The contract's file_type the format counts as (DOC, ODT and RTF count as docx; CSV as xlsx; …)",
  })
  file_type!: string;
  @ApiProperty() bytes!: number;
  @ApiProperty({
    description: `Pages priced: PDF, office and HWP pages, slides, sheets; ${TEXT_PAGE_CHARACTERS} readable characters per page for text, HTML, EPUB and e-mail (${PRINTED_PAGE_CHARACTERS} for ODT, DOC and RTF that store no page count); 0 for Markdown, images and media`,
  })
  pages!: number;
  @ApiProperty({ description: 'Images priced (each TIFF frame counts)' }) images!: number;
  @ApiProperty() duration_seconds!: number;
}

export class SkippedFileEntry {
  @ApiProperty({ description: 'The member of an archive or e-mail that is not converted' }) path!: string;
  @ApiProperty({ description: 'Why it is not converted' }) reason!: string;
}

export class JobFilesResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ type: [JobFileEntry] }) files!: JobFileEntry[];
  @ApiProperty({ type: [SkippedFileEntry] }) skipped_files!: SkippedFileEntry[];
}

export class PreviewResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
  @ApiProperty() file_type!: string;
  @ApiProperty() total_pages!: number;
  @ApiProperty() total_files!: number;
  @ApiProperty() media_duration_seconds!: number;
  @ApiProperty() docling_refinement!: boolean;
  @ApiProperty() docling_refinement_pages!: number;
  @ApiProperty({ enum: ['basic', 'premium'] }) ocr_model!: string;
  @ApiProperty({ enum: ['tesseract', 'easyocr', 'rapidocr'], description: 'The engine that will really run.' })
  ocr_engine!: string;
  @ApiProperty(PAGE_FURNITURE_PROPERTY) page_furniture!: string;
  @ApiProperty(HTML_CONTENT_PROPERTY) html_content!: string;
  @ApiProperty() has_media!: boolean;
  @ApiProperty({ type: CostResponse }) cost!: CostResponse;
  @ApiProperty({ description: 'Balance before deduction (milli-USD).' }) balance!: number;
  @ApiProperty({ description: 'When this quote expires unless confirmed.' }) expires_at!: string;
  @ApiProperty({ type: [JobFileEntry], description: 'Each file that will be converted, with its exact format' })
  files!: JobFileEntry[];
  @ApiProperty({
    type: [SkippedFileEntry],
    description: 'Members of archives and e-mails that will not be converted (not charged), with the reason',
  })
  skipped_files!: SkippedFileEntry[];
}

export class PageReportEntry {
  @ApiProperty({ description: 'The file (its relative path in the upload)' }) file!: string;
  @ApiProperty({ description: 'Page or image frame number in the file, from 1' }) page!: number;
  @ApiProperty({
    enum: ['text', 'ocr', 'text+ocr', 'failed', 'refinement'],
    description:
      'text: read from the text layer; ocr: rendered and read by OCR; text+ocr: the text layer, with areas where it is unreadable (a font without a Unicode map) read by OCR; failed: the page (or, with page 1, the whole file of a job of several files) could not be read, the reason is in notes, and its price was refunded at once; refinement: a page sent to the language model',
  })
  source!: string;
  @ApiPropertyOptional({
    enum: PAGE_FAILURES,
    description:
      'failed only, why the page was not read: deadline (its reading was stopped by the safety valve, OCR_PAGE_DEADLINE_SECONDS), engine_error (the OCR engine failed on it), no_text (no text was found though the page is not blank), low_confidence (read under confidence 30 of 100: too poorly to deliver), unreadable (the page itself could not be read); the sentence is the first of notes',
  })
  failure?: string;
  @ApiPropertyOptional({ description: 'The OCR engine that read the page' }) engine?: string;
  @ApiPropertyOptional({ format: 'double', description: "Mean OCR confidence of the page's characters, 0–100" })
  confidence?: number;
  @ApiPropertyOptional({
    description:
      'OCR only: the page was read poorly (confidence under 70), though well enough to deliver; check it against the original',
  })
  low_confidence?: boolean;
  @ApiPropertyOptional({ format: 'double', description: "OCR only: seconds the page's reading took" }) seconds?: number;
  @ApiPropertyOptional({ description: "Refinement only: whether the language model's answer was kept" })
  refined?: boolean;
  @ApiPropertyOptional({ type: [String] }) notes?: string[];
}

export class PageReportResponse {
  @ApiProperty() job_id!: string;
  @ApiProperty({ type: [PageReportEntry] }) pages!: PageReportEntry[];
}

export class JobResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: JOB_STATUSES }) status!: string;
  @ApiProperty() ocr_model!: string;
  @ApiProperty() ocr_engine!: string;
  @ApiProperty(PAGE_FURNITURE_PROPERTY) page_furniture!: string;
  @ApiProperty(HTML_CONTENT_PROPERTY) html_content!: string;
  @ApiProperty() file_type!: string;
  @ApiProperty() filename!: string;
  @ApiProperty() total_pages!: number;
  @ApiProperty() done_pages!: number;
  @ApiProperty() total_files!: number;
  @ApiProperty() done_files!: number;
  @ApiProperty() media_duration_seconds!: number;
  @ApiProperty({ description: 'Seconds of audio and video transcribed so far (progress of media_duration_seconds)' })
  done_media_seconds!: number;
  @ApiProperty({ description: 'Points actually deducted.' }) cost_points!: number;
  @ApiProperty({ nullable: true, type: String }) error_log!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty() downloadable!: boolean;
  @ApiProperty() xlsx_basic_converted!: boolean;
  @ApiProperty() xlsx_advanced_converted!: boolean;
  @ApiProperty({ nullable: true, type: String, enum: ['processing', 'done', 'error', 'refunded'] })
  xlsx_advanced_status!: string | null;
  @ApiProperty({ nullable: true, type: String }) xlsx_advanced_job_id!: string | null;
  @ApiProperty() xlsx_advanced_refundable!: boolean;
  @ApiProperty({ nullable: true, type: String }) xlsx_advanced_recovery_notes!: string | null;
  @ApiProperty() refundable!: boolean;
  @ApiProperty() retry_count!: number;
  @ApiProperty({ description: 'Points returned by a refund or cancellation.' }) refunded_points!: number;
  @ApiProperty({
    description:
      'Pages and images delivered in the result; 0 until the job ends. GET /jobs/{id}/pages has each page with how it was read.',
  })
  delivered_pages!: number;
  @ApiProperty({
    description:
      'Pages and images that were not read (source failed in GET /jobs/{id}/pages, with the reason): never charged, their price refunded when the job ends.',
  })
  failed_pages!: number;
  @ApiProperty({
    description:
      'Pages and images whose price was given back: those not read, those a cancel kept from being read, and all of them when the job is refunded.',
  })
  refunded_pages!: number;
  @ApiProperty({
    description:
      'Points confirming the job charges: the binding quote of its upload preview (cost.points), shown before a pending job is confirmed.',
  })
  quoted_points!: number;
  @ApiProperty({
    minimum: 1,
    description:
      'Conversion units (source pages plus images, at least 1): an XLSX conversion costs this many times its unit price; only the first conversion of each format is charged.',
  })
  conversion_units!: number;
}

export class JobListResponse {
  @ApiProperty({ type: JobResponse, isArray: true }) jobs!: JobResponse[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last.' })
  next_cursor!: string | null;
}

export class ConfirmResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
  @ApiProperty({ description: 'Balance after deduction.' }) remaining_points!: number;
}

export class RetryResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

export class ConversionResponse {
  @ApiProperty({
    format: 'uri-reference',
    description:
      'Time-limited URL of the converted file; needs no other credential. It starts with the public URL the service is configured with (`PUBLIC_BASE_URL`); without one it is path-absolute (`/api/v1/files/…`): resolve it against the address the API was called at.',
    example:
      'http://localhost:3000/api/v1/files/results/3f1c0d2e-5b7a-4c1e-9d2f-6a8b0c4e1f27/result.docx?expires=1764660000&token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  download_url!: string;
  @ApiProperty({ enum: CONVERSION_FORMATS }) format!: ConversionFormat;
  @ApiProperty({ example: 'results/8b0c…/result.docx' }) storage_path!: string;
}

export class ConversionRetryResponse {
  @ApiProperty({ description: 'Identifier of the conversion run (xlsx_advanced_job_id)' }) job_id!: string;
  @ApiProperty({ enum: ['processing'] }) status!: 'processing';
}

export class RefundResponse {
  @ApiProperty({ enum: [true] }) refunded!: true;
  @ApiProperty() points!: number;
}

/** A failed XLSX Advanced run's retry (the run, processing again) or refund (the points returned). */
export function toConversionActionResponse(
  outcome: { conversionId: string } | { points: number },
): ConversionRetryResponse | RefundResponse {
  return 'conversionId' in outcome
    ? { job_id: outcome.conversionId, status: 'processing' }
    : { refunded: true, points: outcome.points };
}

/** A job's record on the wire, from its entity or from the summary the job read selects. */
export function toJobResponse(job: JobSummary): JobResponse {
  const advanced = conversionOf(job, 'xlsx_advanced');
  return {
    job_id: job.id,
    status: job.status,
    ocr_model: job.ocrModel,
    ocr_engine: job.ocrEngine,
    page_furniture: job.pageFurniture,
    html_content: job.htmlContent,
    file_type: job.fileType,
    filename: job.filename,
    total_pages: job.totalPages,
    done_pages: job.donePages,
    total_files: job.totalFiles,
    done_files: job.doneFiles,
    media_duration_seconds: job.mediaDurationSeconds,
    done_media_seconds: job.doneMediaSeconds,
    cost_points: job.costPoints,
    error_log: job.errorLog,
    created_at: wireTime(job.createdAt),
    finished_at: wireTime(job.finishedAt),
    downloadable: job.status === 'done',
    xlsx_basic_converted: conversionOf(job, 'xlsx_basic')?.status === 'done',
    xlsx_advanced_converted: advanced?.status === 'done',
    xlsx_advanced_status: advanced?.status ?? null,
    xlsx_advanced_job_id: advanced?.runId ?? null,
    xlsx_advanced_refundable: advanced?.refundable ?? false,
    xlsx_advanced_recovery_notes: advanced?.notes ?? null,
    refundable: job.refundable,
    retry_count: job.retryCount,
    refunded_points: job.refundedPoints,
    delivered_pages: job.deliveredPages,
    failed_pages: job.failedPages,
    refunded_pages: job.refundedPages,
    quoted_points: job.quotedPoints,
    conversion_units: units(job.totalPages, job.imageCount),
  };
}

export function toJobFileEntry(file: JobFileEntity): JobFileEntry {
  return {
    path: file.displayPath,
    format: file.kind,
    mime_type: file.mimeType,
    file_type: acceptedFormat(file.kind as FileKind).fileType,
    bytes: file.bytes,
    pages: file.pages,
    images: file.images,
    duration_seconds: file.durationSeconds,
  };
}

export function toJobFilesResponse(job: JobEntity, files: JobFileEntity[]): JobFilesResponse {
  return {
    job_id: job.id,
    files: files.map(toJobFileEntry),
    skipped_files: job.skippedFiles.map((f) => ({ path: f.path, reason: f.reason })),
  };
}

export function toPreviewResponse(job: JobEntity, balance: number, files: JobFileEntity[]): PreviewResponse {
  const listing = toJobFilesResponse(job, files);
  return {
    job_id: job.id,
    status: 'pending',
    file_type: job.fileType,
    total_pages: job.totalPages,
    total_files: job.totalFiles,
    media_duration_seconds: job.mediaDurationSeconds,
    docling_refinement: job.doclingRefinement,
    docling_refinement_pages: job.doclingRefinementPages,
    ocr_model: job.ocrModel,
    ocr_engine: job.ocrEngine,
    page_furniture: job.pageFurniture,
    html_content: job.htmlContent,
    has_media: job.mediaDurationSeconds > 0,
    cost: job.quote,
    balance,
    expires_at: wireTime(job.expiresAt),
    files: listing.files,
    skipped_files: listing.skipped_files,
  };
}
