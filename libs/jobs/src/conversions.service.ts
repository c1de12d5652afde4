import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { conversionPoints } from '@docconv/billing';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { CONVERSION_FORMATS, conversionOf, JobEntity, type ConversionFormat } from '@docconv/db';
import { CONVERSION_LABELS, JobLifecycle } from '@docconv/lifecycle';
import type { Document } from '@docconv/model';
import { RenderLimitError, renderInThread } from '@docconv/render';
import { conversionPath, downloadName, resultFilePath, Storage } from '@docconv/storage';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { loadStoredResult, markdownOf, type StoredResult } from './job-document';
import { invalidState } from './job-errors';
import type { Caller } from './upload.types';

export { CONVERSION_FORMATS, type ConversionFormat } from '@docconv/db';

/**
 * The largest Markdown rendered to an office file in the API (a document of thousands of pages),
 * and the largest document.json parsed to write it: a document spells out each block's
 * provenance and runs, so it is some times its Markdown.
 */
const MAX_RENDER_BYTES: Record<StoredResult['source'], { what: string; bytes: number }> = {
  'result.md': { what: 'Markdown', bytes: 64 * 1024 * 1024 },
  'document.json': { what: 'document', bytes: 256 * 1024 * 1024 },
};

/** Refuses to render a result whose `source` is `bytes` long, past its limit. */
function refuseLarger(format: ConversionFormat, source: StoredResult['source'], bytes: number): void {
  const limit = MAX_RENDER_BYTES[source];
  if (bytes <= limit.bytes) return;
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  throw new DomainError(
    'payload_too_large',
    `This result's ${limit.what} is ${mb(bytes)} MB; ${CONVERSION_LABELS[format]} conversions take at most ${mb(limit.bytes)} MB. Download the Markdown instead.`,
  );
}
/**
 * The pictures one office file embeds, in bytes; pictures past it keep their alt text. The render thread holds
 * them and their encoded copies within its heap (`RENDER_MEMORY_MB`).
 */
const MAX_RENDER_IMAGE_BYTES = 128 * 1024 * 1024;

/** The picture links of a result's Markdown (`![alt](images/f1-p2-1.png)`), each once. */
function pictureLinks(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/!\[[^\]\n]*\]\((images\/[^)\s]+)\)/g)].map((match) => match[1]))];
}

/** The file name ending of each format's file. */
export const CONVERSION_EXTENSIONS: Record<ConversionFormat, 'xlsx' | 'docx' | 'pptx' | 'hwpx'> = {
  xlsx_basic: 'xlsx',
  xlsx_advanced: 'xlsx',
  docx: 'docx',
  pptx: 'pptx',
  hwpx: 'hwpx',
};

/** A format a finished job converts to, as `/capabilities` lists it. */
export interface OutputFormat {
  format: ConversionFormat;
  label: string;
  extension: string;
  /** Charged per conversion unit on its first conversion (the XLSX formats); the others are free. */
  charged: boolean;
}

/** Every format a finished job converts to. */
export function outputFormats(): OutputFormat[] {
  return CONVERSION_FORMATS.map((format) => ({
    format,
    label: CONVERSION_LABELS[format],
    extension: CONVERSION_EXTENSIONS[format],
    charged: format === 'xlsx_basic' || format === 'xlsx_advanced',
  }));
}

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
 * the first conversion of each format is charged (units = source pages, DESIGN.md): its row in
 * `job_conversions` is created by the lifecycle in the same transaction as the ledger row, so
 * of two simultaneous first requests one pays and the other finds the file.
 */
@Injectable()
export class ConversionsService {
  private readonly logger = new Logger(ConversionsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycle,
  ) {}

  /**
   * The job converted to `format` (charged on the first conversion only), with a link to download it:
   * the storage's, on `PUBLIC_BASE_URL`, path-absolute without it, or the bucket's presigned one.
   */
  async convert(
    caller: Caller,
    jobId: string,
    format: ConversionFormat,
  ): Promise<ConversionResult & { downloadUrl: string }> {
    const job = await this.finishedJob(caller.userId, jobId);
    const result =
      format === 'xlsx_advanced'
        ? await this.convertAdvanced(caller, job)
        : await this.convertHere(caller, job, format);
    const downloadUrl = await this.storage.signedUrl(result.storagePath, {
      filename: downloadName(result.title, CONVERSION_EXTENSIONS[format]),
    });
    return { ...result, downloadUrl };
  }

  /** XLSX Advanced retry (free) or refund (what the run charged) after a failed run (spec 4.8). */
  async advancedAction(
    caller: Caller,
    jobId: string,
    action: 'retry' | 'refund',
  ): Promise<{ conversionId: string } | { points: number }> {
    return this.lifecycle.transaction(async (tx): Promise<{ conversionId: string } | { points: number }> => {
      const target = { jobId, userId: caller.userId, format: 'xlsx_advanced' as const };
      const moved =
        action === 'retry'
          ? await tx.move('retryAdvanced', target, {})
          : await tx.move('refundAdvanced', target, { apiKeyId: caller.apiKeyId });
      if (!moved) {
        const run = conversionOf(await this.ownedJob(tx.manager, caller.userId, jobId), 'xlsx_advanced');
        throw invalidState(
          `The XLSX Advanced conversion is ${run?.status ?? 'not started'}` +
            (run?.status === 'error' ? ' and no longer refundable' : '') +
            ': retry and refund apply only to a failed conversion that has not been refunded.',
        );
      }
      const run = moved.conversion!;
      return action === 'retry' ? { conversionId: run.runId } : { points: run.chargePoints };
    }, caller.userId);
  }

  // ---- DOCX, PPTX, XLSX Basic ---------------------------------------------------------

  private async convertHere(caller: Caller, job: JobEntity, format: Exclude<ConversionFormat, 'xlsx_advanced'>) {
    const path = conversionPath(job.id, format);
    const result = { format, storagePath: path, title: job.filename };
    if (conversionOf(job, format)?.status === 'done') return result;

    // The render thread takes the stored document; a job finished before document.json existed
    // sends its Markdown, which the thread reads into the model off the event loop.
    const stored = await loadStoredResult(this.storage, job, (source, bytes) => refuseLarger(format, source, bytes));
    const markdown = markdownOf(stored);
    refuseLarger(format, 'result.md', Buffer.byteLength(markdown));
    const images = format === 'xlsx_basic' ? {} : await this.pictures(job.id, markdown);
    const content = stored.source === 'document.json' ? { document: stored.document } : { markdown };
    const file = await this.render(format, content, images, job);
    await this.storage.put(path, file);
    const price = format === 'xlsx_basic' ? this.config.pricing.prices.xlsxBasicUnit : '0';
    const points = conversionPoints(units(job.totalPages, job.imageCount), price);
    // Of two first requests, one records the file and pays; the other finds it recorded.
    await this.lifecycle.move(
      'deliverConversion',
      { jobId: job.id, userId: caller.userId, format },
      { apiKeyId: caller.apiKeyId, path, points },
    );
    return result;
  }

  /** The stored pictures the Markdown links, up to what one file embeds. */
  private async pictures(jobId: string, markdown: string): Promise<Record<string, Uint8Array>> {
    const pictures: Record<string, Uint8Array> = {};
    let total = 0;
    for (const link of pictureLinks(markdown)) {
      const stored = resultFilePath(jobId, link);
      if (!stored || !(await this.storage.exists(stored))) continue;
      const bytes = await this.storage.read(stored);
      total += bytes.length;
      if (total > MAX_RENDER_IMAGE_BYTES) break;
      pictures[link] = bytes;
    }
    return pictures;
  }

  private async render(
    format: Exclude<ConversionFormat, 'xlsx_advanced'>,
    content: { document: Document } | { markdown: string },
    images: Record<string, Uint8Array>,
    job: JobEntity,
  ) {
    try {
      return await renderInThread({ format, ...content, title: job.filename, images });
    } catch (error) {
      if (error instanceof RenderLimitError) {
        throw new DomainError(
          'conversion_failed',
          `The ${CONVERSION_LABELS[format]} conversion stopped: ${error.message} for this document. Download the Markdown instead.`,
        );
      }
      this.logger.error({ err: error, job_id: job.id, format }, 'Conversion failed');
      throw new DomainError(
        'conversion_failed',
        `The ${CONVERSION_LABELS[format]} conversion failed. Try again; if it keeps failing, download the Markdown instead.`,
      );
    }
  }

  // ---- XLSX Advanced ------------------------------------------------------------------

  private async convertAdvanced(caller: Caller, job: JobEntity): Promise<ConversionResult> {
    const result = {
      format: 'xlsx_advanced' as const,
      storagePath: conversionPath(job.id, 'xlsx_advanced'),
      title: job.filename,
    };
    const run = conversionOf(job, 'xlsx_advanced');
    if (run?.status === 'done') return result;
    if (run?.status === 'error') {
      throw new DomainError(
        'invalid_state',
        'The last XLSX Advanced conversion of this job failed. Retry it or ask for a refund with POST /jobs/{job_id}/xlsx-advanced-action.',
        { extensions: { xlsx_advanced_status: 'error', xlsx_advanced_refundable: run.refundable } },
      );
    }
    // Never asked, or refunded: a new run, charged as it starts; if another request started it first, wait for that one.
    if (run?.status !== 'processing') {
      await this.lifecycle.move(
        'startAdvanced',
        { jobId: job.id, userId: caller.userId, format: 'xlsx_advanced' },
        {
          apiKeyId: caller.apiKeyId,
          runId: randomUUID(),
          points: conversionPoints(units(job.totalPages, job.imageCount), this.config.pricing.prices.xlsxAdvancedUnit),
        },
      );
    }
    return this.awaitAdvanced(job.id, result);
  }

  private async awaitAdvanced(jobId: string, result: ConversionResult): Promise<ConversionResult> {
    const deadline = Date.now() + this.config.conversions.xlsxAdvancedWaitSeconds * 1000;
    for (;;) {
      const job = await this.dataSource.getRepository(JobEntity).findOneByOrFail({ id: jobId });
      const run = conversionOf(job, 'xlsx_advanced');
      if (run?.status === 'done') return result;
      if (run?.status === 'error') {
        throw new DomainError('conversion_failed', run.notes ?? 'The XLSX Advanced conversion failed.', {
          extensions: { xlsx_advanced_status: 'error', xlsx_advanced_refundable: run.refundable },
        });
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
