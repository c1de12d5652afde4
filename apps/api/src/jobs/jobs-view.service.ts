import { Injectable } from '@nestjs/common';
import {
  conversionPath,
  ConversionsService,
  invalidState,
  JobsService,
  pageReportPath,
  type ConversionFormat,
  type FilePageReport,
} from '@docconv/jobs';
import { conversionOf } from '@docconv/db';
import { contentTypeOf, Storage } from '@docconv/storage';
import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import { downloadName } from '../common/content-disposition';
import {
  toJobFilesResponse,
  toJobResponse,
  type ConfirmResponse,
  type ConversionResponse,
  type ConversionRetryResponse,
  type JobFilesResponse,
  type JobListResponse,
  type JobResponse,
  type ListJobsQuery,
  type PageReportResponse,
  type RefundResponse,
  type RetryResponse,
} from './jobs.dto';

const extensionOf = (format: ConversionFormat): 'xlsx' | 'docx' | 'pptx' =>
  format === 'docx' ? 'docx' : format === 'pptx' ? 'pptx' : 'xlsx';

const caller = (p: Principal) => ({ userId: p.userId, apiKeyId: p.apiKey?.id ?? null });

/** Turns the job lifecycle's results into the API's responses. */
@Injectable()
export class JobsViewService {
  constructor(
    private readonly jobs: JobsService,
    private readonly conversions: ConversionsService,
    private readonly storage: Storage,
  ) {}

  async confirm(p: Principal, jobId: string): Promise<ConfirmResponse> {
    const { job, balance } = await this.jobs.confirm(caller(p), jobId);
    return { job_id: job.id, status: 'queued', remaining_points: balance };
  }

  async get(p: Principal, jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.get(p.userId, jobId));
  }

  async rename(p: Principal, jobId: string, title: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.rename(p.userId, jobId, title));
  }

  async action(p: Principal, jobId: string, action: 'retry' | 'refund'): Promise<RetryResponse | RefundResponse> {
    if (action === 'retry') {
      const job = await this.jobs.retry(p.userId, jobId);
      return { job_id: job.id, status: 'queued' };
    }
    const { points } = await this.jobs.refund(caller(p), jobId);
    return { refunded: true, points };
  }

  async cancel(p: Principal, jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.cancel(caller(p), jobId));
  }

  async list(p: Principal, query: ListJobsQuery): Promise<JobListResponse> {
    const { jobs, nextCursor } = await this.jobs.list(p.userId, query);
    return { jobs: jobs.map(toJobResponse), next_cursor: nextCursor };
  }

  /** The Markdown, or with `format` a file already produced by a conversion. */
  async download(
    p: Principal,
    jobId: string,
    format: 'md' | ConversionFormat = 'md',
  ): Promise<{ body: Readable; filename: string; contentType: string }> {
    const { job, path } = await this.jobs.resultPath(p.userId, jobId);
    if (format === 'md') {
      return {
        body: await this.storage.stream(path),
        filename: downloadName(job.filename, 'md'),
        contentType: contentTypeOf(path),
      };
    }
    const converted = conversionPath(jobId, format);
    if (conversionOf(job, format)?.path !== converted) {
      throw invalidState(`This job has no ${format} yet. Create it with POST /api/v1/jobs/${jobId}/convert first.`);
    }
    return {
      body: await this.storage.stream(converted),
      filename: downloadName(job.filename, extensionOf(format)),
      contentType: contentTypeOf(converted),
    };
  }

  async convert(p: Principal, jobId: string, format: ConversionFormat): Promise<ConversionResponse> {
    const result = await this.conversions.convert(caller(p), jobId, format);
    return {
      download_url: await this.storage.signedUrl(result.storagePath, {
        filename: downloadName(result.title, extensionOf(format)),
      }),
      format,
      storage_path: result.storagePath,
    };
  }

  async advancedAction(
    p: Principal,
    jobId: string,
    action: 'retry' | 'refund',
  ): Promise<ConversionRetryResponse | RefundResponse> {
    const outcome = await this.conversions.advancedAction(caller(p), jobId, action);
    return 'conversionId' in outcome
      ? { job_id: outcome.conversionId, status: 'processing' }
      : { refunded: true, points: outcome.points };
  }

  /** The job's files with their exact formats, and the members of its archives and e-mails that were skipped. */
  async files(p: Principal, jobId: string): Promise<JobFilesResponse> {
    const { job, files } = await this.jobs.files(p.userId, jobId);
    return toJobFilesResponse(job, files);
  }

  /** How each page of a finished job was read (text layer or OCR, engine, confidence, refinement). */
  async pages(p: Principal, jobId: string): Promise<PageReportResponse> {
    await this.jobs.resultPath(p.userId, jobId); // the same ownership and state rules as the download
    if (!(await this.storage.exists(pageReportPath(jobId)))) return { job_id: jobId, pages: [] };
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.stream(pageReportPath(jobId))) chunks.push(chunk as Buffer);
    return { job_id: jobId, pages: JSON.parse(Buffer.concat(chunks).toString('utf8')) as FilePageReport[] };
  }
}
