import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { JobEntity, JobFileEntity } from '@docconv/db';
import type { Extraction, FileKind, OcrOptions } from '@docconv/documents';
import { OCR_LANGUAGES } from '@docconv/ocr';
import { refinePage, splitIntoPages, type LanguageModel } from '@docconv/refine';
import { transcriptMarkdown, type Transcriber } from '@docconv/transcription';
import { Storage } from '@docconv/storage';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { quote } from '@docconv/billing';
import { pageReportPath, uploadLimits, type FilePageReport } from '@docconv/jobs';
import { JobLifecycle, type Undelivered } from '@docconv/lifecycle';
import { ConversionMetrics } from '@docconv/metrics';
import { LANGUAGE_MODEL, TRANSCRIBER } from './engine-tokens';
import { ExtractionPool } from './extraction-pool';

export type ParseOutcome = 'done' | 'error' | 'cancelled' | 'skipped';

/** How often a running job looks whether its owner cancelled it. */
const CANCEL_POLL_MS = 500;

/** What a run delivered, measured as the quote measures (so it can be priced the same way). */
interface Delivered {
  /** Pages, images, recordings and page-less files delivered: 0 means nothing was. */
  units: number;
  pages: number;
  images: number;
  audioSeconds: number[];
  videoSeconds: number[];
}

interface Converted {
  markdown: string;
  delivered: Delivered;
  /** Why the files that could not be read failed. */
  failures: string[];
  /** The pages and files not delivered, named for the ledger. */
  failedUnits: string[];
  stopped: boolean;
}

/** Formats whose Markdown layout refinement may rework (spec 4.3: PDF, office and HWP files). */
const REFINABLE = new Set<FileKind>(['pdf', 'docx', 'pptx', 'xlsx', 'hwp', 'hwpx']);

export interface Attempt {
  /** Attempts already made before this one. */
  made: number;
  max: number;
}

/** Progress is written at most this often per job. */
const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Runs one parse attempt: queued → processing → done or error. A file that cannot be read
 * ends the job in `error`, refundable, with a sentence naming it; any other fault is thrown
 * so the queue retries it, and the last attempt records it as an error too.
 */
@Injectable()
export class ParseRunner {
  private readonly logger = new Logger(ParseRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycle,
    private readonly extractions: ExtractionPool,
    private readonly metrics: ConversionMetrics,
    @Optional() @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null = null,
    @Optional() @Inject(LANGUAGE_MODEL) private readonly languageModel: LanguageModel | null = null,
  ) {}

  async run(jobId: string, attempt: Attempt): Promise<ParseOutcome> {
    const began = performance.now();
    const outcome = await this.attempt(jobId, attempt);
    if (outcome !== 'skipped') this.metrics.jobEnded(outcome, (performance.now() - began) / 1000);
    return outcome;
  }

  private async attempt(jobId: string, attempt: Attempt): Promise<ParseOutcome> {
    const started = await this.lifecycle.move('start', { jobId }, {});
    if (!started) return 'skipped'; // cancelled, finished or unknown: nothing to do
    const { job } = started;
    const stop = new AbortController();
    if (job.cancelRequestedAt) stop.abort(); // cancelled while its first worker held it
    const watch = setInterval(() => {
      this.lifecycle.cancelRequested(jobId).then(
        (requested) => requested && stop.abort(),
        () => undefined, // asked again at the next tick
      );
    }, CANCEL_POLL_MS);

    try {
      const converted = await this.convert(
        job,
        job.startedAt!.getTime() + this.config.worker.maxRuntimeSeconds * 1000,
        stop.signal,
      );
      const undelivered = this.undelivered(job, converted);
      const resultPath = `results/${jobId}/result.md`;
      if (converted.stopped) {
        const kept = converted.delivered.units > 0;
        if (kept) await this.storage.put(resultPath, Buffer.from(converted.markdown, 'utf8'));
        await this.lifecycle.move('stopCancelled', { jobId }, { resultPath: kept ? resultPath : null, ...undelivered });
        await this.storage.deletePrefix(`inputs/${jobId}`).catch(() => undefined);
        return 'cancelled';
      }
      if (converted.delivered.units === 0) {
        await this.fail(jobId, converted.failures.join(' '), 'file_processing_failed');
        return 'error';
      }
      await this.storage.put(resultPath, Buffer.from(converted.markdown, 'utf8'));
      await this.lifecycle.move('finish', { jobId }, { resultPath, ...undelivered });
      return 'done';
    } catch (error) {
      if (error instanceof DomainError) {
        await this.fail(jobId, error.message, error.code);
        return 'error';
      }
      if (attempt.made + 1 >= attempt.max) {
        this.logger.error({ err: error, job_id: jobId }, 'Parse failed on its last attempt');
        await this.fail(
          jobId,
          `Processing failed after ${attempt.max} attempts because of an internal fault. Retry the job or ask for a refund.`,
          'internal_error',
        );
        return 'error';
      }
      throw error;
    } finally {
      clearInterval(watch);
    }
  }

  /**
   * The job's files to one Markdown, file by file. A file that cannot be read, or a page of
   * it, is reported failed and the rest go on; once `stop` is aborted (the owner cancelled)
   * the file in hand ends after its page in hand and the files after it are not started.
   */
  private async convert(job: JobEntity, deadline: number, stop: AbortSignal): Promise<Converted> {
    const jobId = job.id;
    const ocr: OcrOptions = {
      engine: job.ocrEngine,
      model: job.ocrModel,
      dpi: job.dpi,
      languages: [...OCR_LANGUAGES],
      settings: { enginesPython: this.config.engines.enginesPython ?? undefined },
      pageBudgetSeconds: this.config.engines.ocrPageBudgetSeconds,
    };
    const files = await this.dataSource.getRepository(JobFileEntity).find({ where: { jobId }, order: { seq: 'ASC' } });
    const folder = await mkdtemp(join(tmpdir(), 'docconv-parse-'));
    const progress = new ProgressWriter((done) => this.lifecycle.progress(jobId, done));
    const delivered: Delivered = { units: 0, pages: 0, images: 0, audioSeconds: [], videoSeconds: [] };
    const failures: string[] = [];
    const failedUnits: string[] = [];
    let stopped = false;
    try {
      const parts: string[] = [];
      const report: FilePageReport[] = [];
      let pagesBefore = 0;
      let secondsBefore = 0;
      for (const [index, file] of files.entries()) {
        if (stop.aborted) {
          stopped = true;
          break;
        }
        const local = join(folder, String(file.seq));
        await pipeline(await this.storage.stream(file.storagePath), createWriteStream(local));
        const kind = file.kind as FileKind;
        const fileStarted = performance.now();
        let extraction: Extraction;
        try {
          extraction =
            kind === 'audio' || kind === 'video'
              ? await this.transcribe(local, file.displayPath, deadline, (fraction) =>
                  progress.update(pagesBefore, index, secondsBefore + fraction * file.durationSeconds),
                )
              : await this.extractions.run(
                  {
                    path: local,
                    kind,
                    mime: file.mimeType,
                    displayName: file.displayPath,
                    units: kind === 'pdf' ? file.pages : file.images,
                    ocr,
                    limits: uploadLimits(this.config),
                  },
                  (done) => progress.update(pagesBefore + (kind === 'pdf' ? done : 0), index, secondsBefore),
                  deadline,
                  stop,
                );
        } catch (error) {
          // A file that cannot be read fails alone: its pages are given back, the other files are delivered.
          if (!(error instanceof DomainError) || files.length === 1 || error.code === 'transcription_unavailable')
            throw error;
          failures.push(error.message);
          failedUnits.push(`${file.displayPath} (whole file)`);
          report.push({ file: file.displayPath, page: 1, source: 'failed', notes: [error.message] });
          pagesBefore += file.pages;
          secondsBefore += file.durationSeconds;
          await rm(local, { force: true });
          continue;
        }
        const failedPages = extraction.pages.filter((p) => p.source === 'failed').map((p) => p.page);
        if (failedPages.length > 0) failedUnits.push(`${file.displayPath} page ${failedPages.join(', ')}`);
        const read = extraction.pages.length - failedPages.length;
        const pages = kind === 'pdf' ? read : extraction.stopped ? 0 : file.pages;
        const images = kind === 'image' ? read : 0;
        delivered.pages += pages;
        delivered.images += images;
        if (kind === 'audio') delivered.audioSeconds.push(file.durationSeconds);
        if (kind === 'video') delivered.videoSeconds.push(file.durationSeconds);
        delivered.units += kind === 'pdf' || kind === 'image' ? read : extraction.stopped ? 0 : 1;
        this.measure(kind, extraction, (performance.now() - fileStarted) / 1000, pages + images, job);
        const markdown =
          job.doclingRefinement && REFINABLE.has(kind)
            ? await this.refine(extraction.markdown, pages, file.displayPath, job, report)
            : extraction.markdown;
        // A file stopped midway counts the pages it read, and is not a file done.
        pagesBefore += extraction.stopped && kind === 'pdf' ? extraction.pages.length : file.pages;
        secondsBefore += file.durationSeconds;
        progress.update(pagesBefore, extraction.stopped ? index : index + 1, secondsBefore);
        // A transcript carries its own heading (the file's path); other files get one when there are several.
        const headed = files.length === 1 || kind === 'audio' || kind === 'video';
        parts.push(headed ? markdown : `## ${file.displayPath}\n\n${markdown.trim()}\n`);
        report.push(...extraction.pages.map((page) => ({ file: file.displayPath, ...page })));
        await rm(local, { force: true });
        if (extraction.stopped) {
          stopped = true;
          break;
        }
      }
      // A stopped job keeps the count of what it read; a finished one is counted whole by its move to done.
      if (stopped) await progress.flush();
      else await progress.settled();
      await this.storage.put(pageReportPath(jobId), Buffer.from(JSON.stringify(report), 'utf8'));
      const markdown = parts.length === 1 ? parts[0] : parts.join('\n');
      return { markdown, delivered, failures, failedUnits, stopped };
    } finally {
      progress.stop();
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** Records a file's conversion and each of its OCR'd pages in the worker's metrics. */
  private measure(kind: FileKind, extraction: Extraction, seconds: number, pages: number, job: JobEntity): void {
    const ocrd = extraction.pages.filter((page) => page.source === 'ocr' || page.source === 'text+ocr');
    this.metrics.fileConverted(kind, ocrd.length > 0 ? job.ocrEngine : 'none', seconds, pages);
    for (const page of ocrd)
      if (page.seconds !== undefined) this.metrics.ocrPage(page.engine ?? job.ocrEngine, job.ocrModel, page.seconds);
  }

  /** The points of what was charged and not delivered, priced as the quote priced them, and what they were. */
  private undelivered(job: JobEntity, converted: Converted): Undelivered {
    const { delivered } = converted;
    const cost = quote(
      {
        measured: delivered,
        model: job.ocrModel,
        refinement: job.doclingRefinement,
        freePagesLeft: job.freePagesUsed,
      },
      this.config.pricing.prices,
    );
    const points = Math.max(0, job.costPoints - cost.points);
    const what = converted.stopped
      ? `cancelled while processing; ${delivered.pages} of ${job.totalPages} pages and ${delivered.images} of ${job.imageCount} images delivered`
      : `not delivered: ${converted.failedUnits.join('; ')}`;
    return { points, pages: what };
  }

  /** Speech to timestamped text with the model loaded at boot; a job past its deadline fails. */
  private async transcribe(
    path: string,
    displayName: string,
    deadline: number,
    onProgress: (fraction: number) => void,
  ) {
    if (!this.transcriber)
      throw new DomainError(
        'transcription_unavailable',
        `${displayName}: transcription is not available on this worker (no speech model is configured). Ask for a refund.`,
      );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DomainError(
              'file_processing_failed',
              `${displayName} took longer than this job may run. Ask for a refund, or split the recording.`,
            ),
          ),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      const transcript = await Promise.race([this.transcriber.transcribe(path, onProgress, deadline), late]);
      return { markdown: transcriptMarkdown(displayName, transcript), pages: [] };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Layout refinement by the language model, page by page as charged: the file's Markdown cut
   * into its page count and each piece sent with the job's prompt and columns. A piece the
   * guard rejects stays as extracted, and the result says so.
   */
  private async refine(
    markdown: string,
    pages: number,
    displayName: string,
    job: JobEntity,
    report: FilePageReport[],
  ): Promise<string> {
    if (!this.languageModel)
      throw new DomainError(
        'refinement_unavailable',
        `${displayName}: layout refinement is not configured on this worker. Ask for a refund, or upload again without docling_refinement.`,
      );
    const pieces = splitIntoPages(markdown, pages);
    const out: string[] = [];
    for (const [i, piece] of pieces.entries()) {
      const page = i + 1;
      const outcome = await refinePage(this.languageModel, {
        markdown: piece,
        prompt: job.prompt,
        columns: job.columns,
        pageLabel: `page ${page} of ${displayName}`,
      });
      report.push({
        file: displayName,
        page,
        source: 'refinement',
        refined: outcome.refined,
        notes: outcome.note ? [outcome.note] : undefined,
      });
      out.push(
        outcome.refined ? outcome.markdown.trim() : `${piece}\n\n<!-- ${outcome.note ?? 'Kept as extracted.'} -->`,
      );
    }
    return out.join('\n\n') + '\n';
  }

  /** Ends the job in error with `reason` as its error_log; `code` names the failure in the metrics. */
  private async fail(jobId: string, reason: string, code: string): Promise<void> {
    this.metrics.jobFailed(code);
    await this.lifecycle.move('fail', { jobId }, { reason });
  }
}

/** Keeps the latest progress and writes it at most once per interval. */
class ProgressWriter {
  private pages = 0;
  private files = 0;
  private seconds = 0;
  private dirty = false;
  private lastWrite = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (done: { pages: number; files: number; mediaSeconds: number }) => Promise<void>,
  ) {}

  update(pages: number, files: number, seconds: number): void {
    this.pages = pages;
    this.files = files;
    this.seconds = Math.floor(seconds);
    this.dirty = true;
    const wait = this.lastWrite + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), wait);
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return this.writing;
    this.dirty = false;
    this.lastWrite = Date.now();
    const done = { pages: this.pages, files: this.files, mediaSeconds: this.seconds };
    this.writing = this.writing
      .then(() => this.write(done))
      .then(
        () => undefined,
        () => undefined,
      );
    return this.writing;
  }

  /** Waits for the write in flight, if any, and writes nothing more: what is pending is dropped. */
  settled(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty = false;
    return this.writing;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
