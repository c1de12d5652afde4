import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { conversionPoints, LedgerService } from '@docconv/billing';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { JobEntity } from '@docconv/db';
import { JobLifecycle, type ConversionColumn } from '@docconv/lifecycle';
import { RenderLimitError, renderInThread } from '@docconv/render';
import { Storage } from '@docconv/storage';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { invalidState } from './job-errors';
import type { Caller } from './upload.types';

/** The largest Markdown rendered to an office file in the API (a document of thousands of pages). */
const MAX_RENDER_MARKDOWN_BYTES = 64 * 1024 * 1024;

export const CONVERSION_FORMATS = ['xlsx_basic', 'xlsx_advanced', 'docx', 'pptx'] as const;
export type ConversionFormat = (typeof CONVERSION_FORMATS)[number];

/** Where each format is stored and which job column records it (DESIGN: `result.<ext>`, two XLSX variants). */
const TARGETS = {
  xlsx_basic: { file: 'result.basic.xlsx', column: 'xlsx_basic_path' },
  xlsx_advanced: { file: 'result.advanced.xlsx', column: null },
  docx: { file: 'result.docx', column: 'docx_path' },
  pptx: { file: 'result.pptx', column: 'pptx_path' },
} as const satisfies Record<ConversionFormat, { file: string; column: ConversionColumn | null }>;

export const conversionPath = (jobId: string, format: ConversionFormat) => `results/${jobId}/${TARGETS[format].file}`;

export interface ConversionResult {
  format: ConversionFormat;
  storagePath: string;
  /** The job's title, for the download's file name. */
  title: string;
}

/** How often a waiting convert call looks at the XLSX Advanced status. */
const POLL_MS = 250;

/**
 * Conversions of a finished job's Markdown (spec 4.9). DOCX, PPTX and XLSX Basic are rendered
 * here; XLSX Advanced runs in the worker on its own queue while the call waits for it. Only
 * the first conversion of each format is charged (units = source pages, DESIGN.md): the job
 * column that records the file is set by a conditional update in the same transaction as the
 * ledger row, so of two simultaneous first requests one pays and the other finds the file.
 */
@Injectable()
export class ConversionsService {
  private readonly logger = new Logger(ConversionsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycle,
  ) {}

  async convert(caller: Caller, jobId: string, format: ConversionFormat): Promise<ConversionResult> {
    const job = await this.finishedJob(caller.userId, jobId);
    return format === 'xlsx_advanced' ? this.convertAdvanced(caller, job) : this.convertHere(caller, job, format);
  }

  /** XLSX Advanced retry (free) or refund (3 per unit) after a failed run (spec 4.8). */
  async advancedAction(
    caller: Caller,
    jobId: string,
    action: 'retry' | 'refund',
  ): Promise<{ conversionId: string } | { points: number }> {
    return this.lifecycle.transaction(async (tx): Promise<{ conversionId: string } | { points: number }> => {
      const job = await this.ownedJob(tx.manager, caller.userId, jobId);
      const target = { jobId, userId: caller.userId };
      const points = this.advancedPoints(job.totalPages, job.imageCount);
      const moved =
        action === 'retry'
          ? await tx.move('retryAdvanced', target, {})
          : await tx.move('refundAdvanced', target, { apiKeyId: caller.apiKeyId, points });
      if (!moved) {
        throw invalidState(
          `The XLSX Advanced conversion is ${job.xlsxAdvancedStatus ?? 'not started'}` +
            (job.xlsxAdvancedStatus === 'error' ? ' and no longer refundable' : '') +
            ': retry and refund apply only to a failed conversion that has not been refunded.',
        );
      }
      return action === 'retry' ? { conversionId: moved.job.xlsxAdvancedJobId! } : { points };
    });
  }

  // ---- DOCX, PPTX, XLSX Basic ---------------------------------------------------------

  private async convertHere(caller: Caller, job: JobEntity, format: Exclude<ConversionFormat, 'xlsx_advanced'>) {
    const path = conversionPath(job.id, format);
    const result = { format, storagePath: path, title: job.filename };
    if (this.recorded(job, format)) return result;

    const bytes = await this.storage.read(job.resultPath!);
    if (bytes.length > MAX_RENDER_MARKDOWN_BYTES) {
      throw new DomainError(
        'payload_too_large',
        `This result's Markdown is ${Math.round(bytes.length / 1024 / 1024)} MB; ${formatLabel(format)} conversions take at most ${MAX_RENDER_MARKDOWN_BYTES / 1024 / 1024} MB. Download the Markdown instead.`,
      );
    }
    const file = await this.render(format, bytes.toString('utf8'), job);
    await this.storage.put(path, file);

    const price = format === 'xlsx_basic' ? this.config.pricing.prices.xlsxBasicUnit : '0';
    await this.dataSource.transaction(async (m) => {
      const won = await this.lifecycle.recordConversion(m, job.id, TARGETS[format].column, path);
      const points = conversionPoints(units(job.totalPages, job.imageCount), price);
      if (won && points > 0) {
        await this.ledger.post(
          {
            userId: caller.userId,
            apiKeyId: caller.apiKeyId,
            jobId: job.id,
            type: 'spend',
            points,
            description: `${formatLabel(format)} of job ${job.id}`,
            idempotencyKey: `job:${job.id}:convert:${format}`,
          },
          m,
        );
      }
    });
    return result;
  }

  private async render(format: Exclude<ConversionFormat, 'xlsx_advanced'>, markdown: string, job: JobEntity) {
    try {
      return await renderInThread({ format, markdown, title: job.filename });
    } catch (error) {
      if (error instanceof RenderLimitError) {
        throw new DomainError(
          'conversion_failed',
          `The ${formatLabel(format)} conversion stopped: ${error.message} for this document. Download the Markdown instead.`,
        );
      }
      this.logger.error({ err: error, job_id: job.id, format }, 'Conversion failed');
      throw new DomainError(
        'conversion_failed',
        `The ${formatLabel(format)} conversion failed. Try again; if it keeps failing, download the Markdown instead.`,
      );
    }
  }

  private recorded(job: JobEntity, format: ConversionFormat): boolean {
    switch (format) {
      case 'xlsx_basic':
        return job.xlsxBasicPath !== null;
      case 'xlsx_advanced':
        return job.xlsxAdvancedPath !== null;
      case 'docx':
        return job.docxPath !== null;
      case 'pptx':
        return job.pptxPath !== null;
    }
  }

  // ---- XLSX Advanced ------------------------------------------------------------------

  private async convertAdvanced(caller: Caller, job: JobEntity): Promise<ConversionResult> {
    const result = {
      format: 'xlsx_advanced' as const,
      storagePath: conversionPath(job.id, 'xlsx_advanced'),
      title: job.filename,
    };
    if (job.xlsxAdvancedStatus === 'done') return result;
    if (job.xlsxAdvancedStatus === 'error') {
      throw new DomainError(
        'invalid_state',
        'The last XLSX Advanced conversion of this job failed. Retry it or ask for a refund with POST /jobs/{job_id}/xlsx-advanced-action.',
        { extensions: { xlsx_advanced_status: 'error', xlsx_advanced_refundable: job.xlsxAdvancedRefundable } },
      );
    }
    if (job.xlsxAdvancedStatus !== 'processing') await this.startAdvanced(caller, job);
    return this.awaitAdvanced(job.id, result);
  }

  /** Never asked (or refunded): a new run, charged as it starts; when another request started it first, this one waits for it. */
  private async startAdvanced(caller: Caller, job: JobEntity): Promise<void> {
    await this.lifecycle.move(
      'startAdvanced',
      { jobId: job.id },
      {
        apiKeyId: caller.apiKeyId,
        conversionId: randomUUID(),
        points: this.advancedPoints(job.totalPages, job.imageCount),
      },
    );
  }

  private async awaitAdvanced(jobId: string, result: ConversionResult): Promise<ConversionResult> {
    const deadline = Date.now() + this.config.conversions.xlsxAdvancedWaitSeconds * 1000;
    for (;;) {
      const job = await this.dataSource.getRepository(JobEntity).findOneByOrFail({ id: jobId });
      if (job.xlsxAdvancedStatus === 'done') return result;
      if (job.xlsxAdvancedStatus === 'error') {
        throw new DomainError(
          'conversion_failed',
          `${job.xlsxAdvancedRecoveryNotes ?? 'The XLSX Advanced conversion failed.'}`,
          { extensions: { xlsx_advanced_status: 'error', xlsx_advanced_refundable: job.xlsxAdvancedRefundable } },
        );
      }
      if (Date.now() > deadline) {
        throw new DomainError(
          'service_unavailable',
          'The XLSX Advanced conversion is still running. Call this endpoint again in a little while to get the file; you will not be charged again.',
          { retryAfterSeconds: 10, extensions: { xlsx_advanced_status: 'processing' } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private advancedPoints(totalPages: number, imageCount: number): number {
    return conversionPoints(units(totalPages, imageCount), this.config.pricing.prices.xlsxAdvancedUnit);
  }

  // ---- lookups ------------------------------------------------------------------------

  private async finishedJob(userId: string, jobId: string): Promise<JobEntity> {
    const job = await this.ownedJob(this.dataSource.manager, userId, jobId);
    if (job.status !== 'done' || !job.resultPath) {
      throw invalidState(`The job is ${job.status}; it can be converted once it is done.`);
    }
    return job;
  }

  private async ownedJob(m: EntityManager, userId: string, jobId: string): Promise<JobEntity> {
    const job = await m.findOne(JobEntity, { where: { id: jobId, userId } });
    if (!job) throw new DomainError('job_not_found', `No job ${jobId} belongs to this account.`);
    return job;
  }
}

/** Conversion units (DESIGN.md): one per source page — PDF, office and HWP pages plus images — at least 1. */
export function units(totalPages: number, imageCount: number): number {
  return Math.max(1, totalPages + imageCount);
}

function formatLabel(format: ConversionFormat): string {
  return { xlsx_basic: 'XLSX Basic', xlsx_advanced: 'XLSX Advanced', docx: 'DOCX', pptx: 'PPTX' }[format];
}
