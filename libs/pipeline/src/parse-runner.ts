import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, MAX_PRIORITY, type JobPayload } from '@docconv/contracts';
import { JobEntity, JobFileEntity } from '@docconv/db';
import { acceptedFormat, type FileKind, type PageReport, type ResultSource } from '@docconv/documents';
import {
  assemblePdf,
  type Extraction,
  type OcrOptions,
  type PageRange,
  type PdfPages,
  failedFileMarkdown,
  failureOf,
  ORIENTATION_BLOCK_PAGES,
} from '@docconv/reading';
import { OCR_LANGUAGES } from '@docconv/ocr';
import { refinePage, splitIntoPages, type LanguageModel } from '@docconv/refine';
import type { Transcriber } from '@docconv/transcription';
import { Queues } from '@docconv/redis';
import {
  documentPath,
  imagePath,
  imagePrefix,
  inputsPrefix,
  markdownPath,
  pageReportPath,
  rangePath,
  rangesPrefix,
  Storage,
  structuredResultPath,
} from '@docconv/storage';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { deliveredOf, settle, type PricedFile } from '@docconv/billing';
import { uploadLimits, type FilePageReport } from '@docconv/jobs';
import { JobLifecycle, type Undelivered } from '@docconv/lifecycle';
import { ConversionMetrics } from '@docconv/metrics';
import { PART_SEPARATOR, type DocumentPart } from './assemble-document';
import { LANGUAGE_MODEL, TRANSCRIBER } from './engine-tokens';
import { ExtractionPool, NEVER_CANCELLED, type CancelCheck } from './extraction-pool';
import { transcribeRecording } from './transcribe-recording';

/** How a parse attempt ended; `spread`: its pages were handed to `parse.range` jobs and a `parse.assemble`. */
export type ParseOutcome = 'done' | 'error' | 'cancelled' | 'skipped' | 'spread';

/** How a `parse.range` job ended: its pages read (or reported failed), or nothing to do. */
export type RangeOutcome = 'read' | 'skipped';

interface Converted {
  markdown: string;
  /** Each file's stretch of `markdown`, with the document its reader built: the job's document is made of them. */
  parts: DocumentPart[];
  /** What each file that delivered something delivered (see deliveredOf): none, and nothing was. */
  delivered: PricedFile[];
  /** Why the files that could not be read failed. */
  failures: string[];
  /** The pages and files not delivered, named for the ledger. */
  failedUnits: string[];
  /** Pages and images that were not read (a page that failed, every page of a file that failed). */
  failed: number;
  stopped: boolean;
  /** Where a stopped job saw the cancel, said to its owner (`cancel seen …`). */
  seen?: string;
  /** Each file's stretch of `markdown`, with its placed pages. */
  sources: ResultSource[];
}

/** Files read page by page, each page delivered only if it finished before any cancel (see readPageByPage). */
const PAGED = new Set<FileKind>(['pdf', 'image']);

export interface Attempt {
  /** Attempts already made before this one. */
  made: number;
  max: number;
}

/** Progress is written at most this often per job (per range of a fanned-out job). */
const PROGRESS_INTERVAL_MS = 1_000;

/** A fanned-out job gets about this many ranges per worker slot, so that a slot that finishes early takes another. */
const RANGES_PER_SLOT = 2;
/** No range is shorter than this (each costs a message, a read of the file and a stored part)… */
const MIN_RANGE_PAGES = 5;
/**
 * …or longer, when its pages look scanned: a range read again after a crash, or after a stopping
 * worker's grace period ran out, repeats at most this many pages.
 */
const MAX_RANGE_PAGES = 50;
/**
 * A PDF whose sampled pages all have a text layer is read at hundreds of pages a second: ranges
 * would cost about what they save, so it is spread only from this many pages (for fairness: one
 * slot would hold it for seconds)…
 */
const TEXT_FANOUT_MIN_PAGES = 1_000;
/** …and in ranges of up to this many pages (a second or two each). */
const MAX_TEXT_RANGE_PAGES = 500;

/** Reads one of the job's files; `onProgress` hears its pages done and seconds transcribed so far. */
type FileReader = (file: JobFileEntity, onProgress: (pages: number, seconds: number) => void) => Promise<Extraction>;

/** The page ranges of a file of `pages` pages cut every `rangePages` pages. */
export function pageRanges(pages: number, rangePages: number): PageRange[] {
  const ranges: PageRange[] = [];
  for (let first = 1; first <= pages; first += rangePages)
    ranges.push({ first, last: Math.min(pages, first + rangePages - 1) });
  return ranges;
}

/**
 * Whether a job's files are worth spreading over page ranges: one PDF of `minPages` pages or more
 * (FANOUT_MIN_PAGES; 0: never) with scanned pages, or a text PDF of TEXT_FANOUT_MIN_PAGES or more.
 */
export function spreads(files: { kind: string; pages: number; needsOcr: boolean }[], minPages: number): boolean {
  if (minPages === 0 || files.length !== 1 || files[0].kind !== 'pdf') return false;
  const [file] = files;
  return file.pages >= minPages && (file.needsOcr || file.pages >= TEXT_FANOUT_MIN_PAGES);
}

/**
 * How many pages each range of a PDF gets when `slots` worker slots read it: about
 * RANGES_PER_SLOT ranges per slot, at least MIN_RANGE_PAGES, at most MAX_RANGE_PAGES when its
 * pages need OCR and MAX_TEXT_RANGE_PAGES when they have a text layer; undefined when a single
 * slot would read it all anyway. Always a whole number of ORIENTATION_BLOCK_PAGES, so every range
 * starts at a block's first page and a page reads the same however many slots share the file.
 */
export function rangePagesFor(file: { pages: number; needsOcr: boolean }, slots: number): number | undefined {
  if (slots < 2) return undefined;
  const size = Math.ceil(file.pages / (slots * RANGES_PER_SLOT) / ORIENTATION_BLOCK_PAGES) * ORIENTATION_BLOCK_PAGES;
  return Math.min(file.needsOcr ? MAX_RANGE_PAGES : MAX_TEXT_RANGE_PAGES, Math.max(MIN_RANGE_PAGES, size));
}

/**
 * Runs a parse job: queued → processing → done, cancelled or error. A job is read whole by one
 * worker, or, when it is one large PDF and several worker slots serve the parse queue, spread
 * over page ranges read by any of them at once and assembled in order once all have ended.
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
    private readonly queues: Queues,
    @Optional() @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null = null,
    @Optional() @Inject(LANGUAGE_MODEL) private readonly languageModel: LanguageModel | null = null,
  ) {}

  /** A `parse.run`: the job read whole, or, for a large PDF, handed out in page ranges (`priority`: the message's). */
  async run(payload: JobPayload<'parse.run'>, attempt: Attempt, priority?: number): Promise<ParseOutcome> {
    const began = performance.now();
    const outcome = await this.attempt(payload, attempt, priority);
    if (outcome !== 'skipped' && outcome !== 'spread')
      this.metrics.jobEnded(outcome, (performance.now() - began) / 1000);
    return outcome;
  }

  private async attempt(payload: JobPayload<'parse.run'>, attempt: Attempt, priority?: number): Promise<ParseOutcome> {
    const { jobId, retry } = payload;
    // Handed out already (this message came again after its worker died): the ranges carry on.
    if ((await this.queues.state('parse.assemble', { jobId, retry, rangePages: 0 })) !== 'missing') return 'spread';
    const started = await this.lifecycle.move('start', { jobId }, {});
    if (!started) return 'skipped'; // cancelled, finished or unknown: nothing to do
    const { job } = started;
    const files = await this.filesOf(jobId);
    const rangePages = await this.spread(files);
    if (rangePages !== undefined) {
      // Under fair queueing each range waits, like a job, behind the pages its owner has ahead of
      // it, this job's earlier ranges included: another user's job goes before the rest of this one.
      const ranges = pageRanges(files[0].pages, rangePages).map((range) => ({
        name: 'parse.range' as const,
        payload: { jobId, retry, ...range },
        priority: priority && Math.min(priority + range.first - 1, MAX_PRIORITY),
      }));
      await this.queues.fanOut({ name: 'parse.assemble', payload: { jobId, retry, rangePages }, priority }, ranges);
      this.logger.log({ job_id: jobId, ranges: ranges.length, range_pages: rangePages }, 'Parse spread over ranges');
      return 'spread';
    }
    return this.conclude(job, attempt, (cancelled) =>
      this.convert(job, files, cancelled, this.fileReader(job, cancelled)),
    );
  }

  /**
   * A `parse.range`: pages `first`…`last` of the job's PDF read and stored for the assembly, with
   * the range's progress counted in the job's. A file or page that cannot be read, or a last
   * attempt's fault, is stored as the range's pages failed (refunded at the assembly); any other
   * fault is thrown so that the queue retries this range alone.
   */
  async readRange(payload: JobPayload<'parse.range'>, attempt: Attempt): Promise<RangeOutcome> {
    const { jobId, retry, first, last } = payload;
    const job = await this.dataSource.getRepository(JobEntity).findOneBy({ id: jobId });
    if (!job || job.status !== 'processing' || job.retryCount !== retry) return 'skipped';
    // Cancelled before this range began: nothing of it is read, and the assembly refunds it.
    const part = job.cancelRequestedAt ? NOTHING_READ : await this.readPart(job, payload, attempt);
    await this.storage.put(rangePath(jobId, retry, first), Buffer.from(JSON.stringify(part), 'utf8'));
    await this.lifecycle.rangeProgress(jobId, first, part.stopped ? part.reports.length : last - first + 1);
    return 'read';
  }

  /** The pages of one range read in the extraction pool, its progress written as it goes. */
  private async readPart(job: JobEntity, payload: JobPayload<'parse.range'>, attempt: Attempt): Promise<PdfPages> {
    const { first, last } = payload;
    const [file] = await this.filesOf(job.id);
    const progress = new ProgressWriter((done) => this.lifecycle.rangeProgress(job.id, first, done.pages));
    try {
      const began = performance.now();
      const part = await this.withLocalCopy(file, (path) =>
        this.extractions.readRange(
          this.extractInput(job, file, path),
          { first, last },
          (done) => progress.update(done, 0, 0),
          this.deadlineOf(job),
          this.cancelCheck(job),
        ),
      );
      const pages = part.reports.filter((report) => report.source !== 'failed').length;
      this.record('pdf', part.reports, (performance.now() - began) / 1000, pages, job);
      return part;
    } catch (error) {
      if (error instanceof DomainError) return failedRange({ first, last }, error.message);
      if (attempt.made + 1 < attempt.max) throw error;
      this.logger.error({ err: error, job_id: job.id, first }, 'Page range failed on its last attempt');
      const why = `Pages ${first}–${last} of ${file.displayPath} could not be read after ${attempt.max} attempts because of an internal fault.`;
      return failedRange({ first, last }, why);
    } finally {
      progress.stop();
      await progress.settled();
    }
  }

  /**
   * A `parse.assemble`, once every range of the job has ended: the ranges' pages laid out as one
   * document (a range whose job failed for good counts as pages not read) and the job ended as
   * a job read whole ends: done, cancelled with what was read, or in error.
   */
  async assemble(payload: JobPayload<'parse.assemble'>, attempt: Attempt): Promise<ParseOutcome> {
    const { jobId, retry, rangePages } = payload;
    const job = await this.dataSource.getRepository(JobEntity).findOneBy({ id: jobId });
    if (!job || job.status !== 'processing' || job.retryCount !== retry) return 'skipped';
    const files = await this.filesOf(jobId);
    const parts = await Promise.all(
      pageRanges(files[0].pages, rangePages).map(async (range) => {
        const path = rangePath(jobId, retry, range.first);
        if (await this.storage.exists(path))
          return JSON.parse((await this.storage.read(path)).toString('utf8')) as PdfPages;
        const why = `Pages ${range.first}–${range.last} of ${files[0].displayPath} could not be read: processing was interrupted too many times.`;
        return failedRange(range, why);
      }),
    );
    // A cancel is the ranges' to act on: those it reached kept the pages delivered before it, and
    // the job ends cancelled with them; the assembly itself delivers every page the ranges kept.
    const outcome = await this.conclude(job, attempt, () =>
      this.convert(job, files, NEVER_CANCELLED, async () => assemblePdf(parts)),
    );
    await this.storage.deletePrefix(rangesPrefix(jobId)).catch(() => undefined);
    this.metrics.jobEnded(outcome, (Date.now() - job.startedAt!.getTime()) / 1000);
    return outcome;
  }

  /** Page ranges of this many pages when the job `spreads` and several worker slots serve the parse queue. */
  private async spread(files: JobFileEntity[]): Promise<number | undefined> {
    if (!spreads(files, this.config.worker.fanOutMinPages)) return undefined;
    const workers = await this.queues.workersOn('parse');
    return rangePagesFor(files[0], workers * this.config.worker.concurrency);
  }

  /**
   * Converts with `work` and ends the job as its result says, `work` asking as pages are read and
   * after each file whether its owner cancelled it (and delivering only what finished before): a
   * file that cannot be read ends it in `error`, refundable, with a sentence naming it; any other
   * fault is thrown so the queue retries, and the last attempt records it as an error too.
   */
  private async conclude(
    job: JobEntity,
    attempt: Attempt,
    work: (cancelled: CancelCheck) => Promise<Converted>,
  ): Promise<'done' | 'error' | 'cancelled'> {
    const jobId = job.id;
    try {
      const converted = await work(this.cancelCheck(job));
      const undelivered = this.undelivered(job, converted);
      const resultPath = markdownPath(jobId);
      if (converted.stopped) {
        const kept = converted.delivered.length > 0;
        if (kept) await this.storeResult(job, resultPath, converted);
        await this.lifecycle.move('stopCancelled', { jobId }, { resultPath: kept ? resultPath : null, ...undelivered });
        await this.storage.deletePrefix(inputsPrefix(jobId)).catch(() => undefined);
        return 'cancelled';
      }
      if (converted.delivered.length === 0) {
        await this.fail(jobId, converted.failures.join(' '), 'file_processing_failed', converted.failed);
        return 'error';
      }
      await this.storeResult(job, resultPath, converted);
      await this.lifecycle.move('finish', { jobId }, { resultPath, ...undelivered });
      return 'done';
    } catch (error) {
      if (error instanceof DomainError) {
        // A file that could not be read, none of its pages: every page and image of the job was not read.
        await this.fail(jobId, error.message, error.code, job.totalPages + job.imageCount);
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
    }
  }

  /**
   * The Markdown, and beside it the structured result mapping its blocks to their files, pages and
   * boxes, and the document the Markdown is written from (what conversions render).
   */
  private async storeResult(job: JobEntity, resultPath: string, converted: Converted): Promise<void> {
    const jobId = job.id;
    const [structured, document] = await Promise.all([
      this.extractions.structure(converted.markdown, converted.sources, this.deadlineOf(job)),
      this.extractions.document(converted.parts, this.deadlineOf(job)),
    ]);
    await this.storage.put(structuredResultPath(jobId), Buffer.from(structured, 'utf8'));
    if (document !== undefined) {
      await this.storage.put(documentPath(jobId), Buffer.from(document, 'utf8'));
    } else {
      // Conversions then read the Markdown back, as for a job finished before documents were stored.
      this.logger.error({ job_id: jobId }, 'No document.json: the documents of its files do not write its Markdown');
      await this.storage.deletePrefix(documentPath(jobId)).catch(() => undefined);
    }
    await this.storage.put(resultPath, Buffer.from(converted.markdown, 'utf8'));
  }

  /**
   * Whether the job's owner has cancelled it, asked of PostgreSQL, where the request is recorded,
   * as pages are read (see readPageByPage) and after each file: only what finished before an answer
   * of no is delivered, so no page that finished after the request is charged. A job found
   * cancelled stays cancelled, and is not asked again.
   */
  private cancelCheck(job: JobEntity): CancelCheck {
    let requested = job.cancelRequestedAt !== null; // cancelled while its first worker held it
    return async () => (requested ||= await this.lifecycle.cancelRequested(job.id));
  }

  private filesOf(jobId: string): Promise<JobFileEntity[]> {
    return this.dataSource.getRepository(JobFileEntity).find({ where: { jobId }, order: { seq: 'ASC' } });
  }

  /** When the job must be done: its start plus the time a job may run. */
  private deadlineOf(job: JobEntity): number {
    return job.startedAt!.getTime() + this.config.worker.maxRuntimeSeconds * 1000;
  }

  /** What the extraction thread needs to read `file`, downloaded at `path`. */
  private extractInput(job: JobEntity, file: JobFileEntity, path: string) {
    const ocr: OcrOptions = {
      engine: job.ocrEngine,
      model: job.ocrModel,
      dpi: job.dpi,
      languages: [...OCR_LANGUAGES],
      settings: { enginesPython: this.config.engines.enginesPython ?? undefined, threads: this.config.engines.threads },
      pageDeadlineSeconds: this.config.engines.ocrPageDeadlineSeconds,
    };
    const kind = file.kind as FileKind;
    const units = kind === 'pdf' ? file.pages : file.images;
    return {
      path,
      kind,
      mime: file.mimeType,
      displayName: file.displayPath,
      units,
      ocr,
      limits: uploadLimits(this.config),
      imagePrefix: imagePrefix(file.seq),
    };
  }

  /** Runs `work` on a local copy of the file's input, removed afterwards. */
  private async withLocalCopy<T>(file: JobFileEntity, work: (path: string) => Promise<T>): Promise<T> {
    const folder = await mkdtemp(join(tmpdir(), 'docconv-parse-'));
    try {
      const local = join(folder, String(file.seq));
      await pipeline(await this.storage.stream(file.storagePath), createWriteStream(local));
      return await work(local);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** Reads a file of the job on this worker: speech by the transcriber, the rest in the extraction pool. */
  private fileReader(job: JobEntity, cancelled: CancelCheck): FileReader {
    const deadline = this.deadlineOf(job);
    return (file, onProgress) =>
      this.withLocalCopy(file, async (path) => {
        const kind = file.kind as FileKind;
        const began = performance.now();
        const extraction: Extraction =
          kind === 'audio' || kind === 'video'
            ? await transcribeRecording(this.transcriber, path, file.displayPath, deadline, (fraction) =>
                onProgress(0, fraction * file.durationSeconds),
              )
            : await this.extractions.run(
                this.extractInput(job, file, path),
                (done) => onProgress(kind === 'pdf' ? done : 0, 0),
                deadline,
                cancelled,
              );
        const read = extraction.pages.filter((page) => page.source !== 'failed').length;
        const handed = deliveredOf(file, read, extraction.stopped === true);
        const seconds = (performance.now() - began) / 1000;
        this.record(kind, extraction.pages, seconds, handed ? handed.pages + handed.images : 0, job);
        return extraction;
      });
  }

  /**
   * The job's files to one Markdown, file by file, each read by `read`. A file that cannot be
   * read, or a page of it, is reported failed and the rest go on. Once `cancelled` says the owner
   * cancelled, nothing that finishes afterwards is delivered: a PDF or image keeps the pages
   * finished before an answer of no (its thread asks as it reads), a file read whole or refined
   * after the cancel is dropped, and the files after it are not started.
   */
  private async convert(
    job: JobEntity,
    files: JobFileEntity[],
    cancelled: CancelCheck,
    readFile: FileReader,
  ): Promise<Converted> {
    const jobId = job.id;
    const progress = new ProgressWriter((done) => this.lifecycle.progress(jobId, done));
    const delivered: PricedFile[] = [];
    const failures: string[] = [];
    const failedUnits: string[] = [];
    let failed = 0;
    let stopped = false;
    let seen: string | undefined;
    try {
      const parts: DocumentPart[] = [];
      const sources: ResultSource[] = [];
      let offset = 0; // where the next part starts in the joined Markdown
      const report: FilePageReport[] = [];
      let pagesBefore = 0;
      let secondsBefore = 0;
      for (const [index, file] of files.entries()) {
        if (await cancelled()) {
          stopped = true;
          seen = `before ${file.displayPath} was started`;
          break;
        }
        const kind = file.kind as FileKind;
        let extraction: Extraction;
        try {
          extraction = await readFile(file, (pages, seconds) =>
            progress.update(pagesBefore + pages, index, secondsBefore + seconds),
          );
        } catch (error) {
          // A file that cannot be read fails alone: its pages are given back, the other files are delivered.
          if (!(error instanceof DomainError) || files.length === 1 || error.code === 'transcription_unavailable')
            throw error;
          failures.push(error.message);
          failedUnits.push(`${file.displayPath} (whole file)`);
          failed += file.pages + file.images;
          const unread: PageReport = { page: 1, source: 'failed', failure: failureOf(error), notes: [error.message] };
          report.push({ file: file.displayPath, ...unread });
          // Marked where the file would have been, and listed with its reason in the structured result.
          const part = `## ${file.displayPath}\n\n${failedFileMarkdown(error.message)}\n`;
          parts.push({ file: file.displayPath, markdown: part, headed: true });
          sources.push({
            file: file.displayPath,
            kind: file.kind as FileKind,
            start: offset,
            end: offset + part.length,
            headed: true,
            pages: [{ page: 1, width: 0, height: 0, lines: [], furniture: [] }],
            reports: [unread],
          });
          offset += part.length + 1;
          pagesBefore += file.pages;
          secondsBefore += file.durationSeconds;
          continue;
        }
        // A file read whole, not page by page, is delivered only if it finished before any cancel.
        if (!PAGED.has(kind) && (await cancelled())) {
          stopped = true;
          seen = `as ${file.displayPath} was read; it finished after the cancel and is not delivered`;
          break;
        }
        const failedPages = extraction.pages.filter((p) => p.source === 'failed').map((p) => p.page);
        const handed = deliveredOf(file, extraction.pages.length - failedPages.length, extraction.stopped === true);
        const refinement: FilePageReport[] = [];
        const markdown =
          job.doclingRefinement && acceptedFormat(kind).refinable
            ? await this.refine(extraction.markdown, handed?.pages ?? 0, file.displayPath, job, refinement, cancelled)
            : extraction.markdown;
        if (markdown === undefined) {
          // Cancelled while its pages were refined: they would finish after the cancel, and are not delivered.
          stopped = true;
          seen = `as ${file.displayPath} was refined; it is not delivered`;
          break;
        }
        report.push(...refinement);
        for (const image of extraction.images ?? []) {
          await this.storage.put(imagePath(jobId, image.name), Buffer.from(image.data, 'base64'));
        }
        if (failedPages.length > 0) failedUnits.push(`${file.displayPath} page ${failedPages.join(', ')}`);
        failed += failedPages.length;
        if (handed) delivered.push(handed);
        // A file stopped midway counts the pages it read, and is not a file done.
        pagesBefore += extraction.stopped && kind === 'pdf' ? extraction.pages.length : file.pages;
        secondsBefore += file.durationSeconds;
        progress.update(pagesBefore, extraction.stopped ? index : index + 1, secondsBefore);
        // A transcript carries its own heading (the file's path); other files get one when there are several.
        const headed = files.length === 1 || kind === 'audio' || kind === 'video';
        const part = headed ? markdown : `## ${file.displayPath}\n\n${markdown.trim()}\n`;
        // The reader's document is the file's unless refinement rewrote its Markdown.
        const document = markdown === extraction.markdown ? extraction.document : undefined;
        parts.push({ file: file.displayPath, markdown: part, headed: !headed, read: document });
        sources.push({
          file: file.displayPath,
          kind,
          start: offset,
          end: offset + part.length,
          headed: !headed,
          pages: extraction.placed,
          reports: extraction.pages,
          document: extraction.document,
        });
        offset += part.length + 1;
        report.push(...extraction.pages.map((page) => ({ file: file.displayPath, ...page })));
        if (extraction.stopped) {
          stopped = true;
          seen =
            extraction.dropped !== undefined
              ? `as ${pagesOf(extraction.dropped)} of ${file.displayPath} read: finished after the cancel, not delivered`
              : extraction.pages.length === 0
                ? `before ${file.displayPath} was started`
                : `while the page ranges of ${file.displayPath} were read`;
          break;
        }
      }
      // A stopped job keeps the count of what it read; a finished one is counted whole by its move to done.
      if (stopped) await progress.flush();
      else await progress.settled();
      await this.storage.put(pageReportPath(jobId), Buffer.from(JSON.stringify(report), 'utf8'));
      const markdown = parts.map((part) => part.markdown).join(PART_SEPARATOR);
      return { markdown, parts, delivered, failures, failedUnits, failed, stopped, seen, sources };
    } finally {
      progress.stop();
    }
  }

  /** Records a file's (or page range's) conversion and each of its OCR'd pages in the worker's metrics. */
  private record(kind: FileKind, reports: PageReport[], seconds: number, pages: number, job: JobEntity): void {
    const ocrd = reports.filter((page) => page.source === 'ocr' || page.source === 'text+ocr');
    this.metrics.fileConverted(kind, ocrd.length > 0 ? job.ocrEngine : 'none', seconds, pages);
    for (const page of ocrd)
      if (page.seconds !== undefined) this.metrics.ocrPage(page.engine ?? job.ocrEngine, job.ocrModel, page.seconds);
  }

  /**
   * What the job owes back for what it charged and did not deliver (settled by billing, as its
   * quote priced it), with the pages that were, named for the ledger.
   */
  private undelivered(job: JobEntity, converted: Converted): Undelivered {
    const settled = settle(job, converted.delivered, this.config.pricing.prices);
    const what = converted.stopped
      ? `cancelled while processing; ${settled.pages} of ${job.totalPages} pages and ${settled.images} of ${job.imageCount} images finished before the cancel and delivered; cancel seen ${converted.seen}`
      : `not delivered: ${converted.failedUnits.join('; ')}`;
    return {
      points: settled.points,
      pages: what,
      delivered: settled.pages + settled.images,
      failed: converted.failed,
      refunded: settled.refunded,
      freePages: settled.freePages,
    };
  }

  /**
   * Layout refinement by the language model, page by page as charged: the file's Markdown cut
   * into its page count and each piece sent with the job's prompt and columns. A piece the
   * guard rejects stays as extracted, and the result says so. A cancel while it runs leaves the
   * file undelivered (undefined): its refined pages would finish after it.
   */
  private async refine(
    markdown: string,
    pages: number,
    displayName: string,
    job: JobEntity,
    report: FilePageReport[],
    cancelled: CancelCheck,
  ): Promise<string | undefined> {
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
      if (await cancelled()) return undefined;
    }
    return out.join('\n\n') + '\n';
  }

  /**
   * Ends the job in error with `reason` as its error_log and `failed` pages not read; `code` names
   * the failure in the metrics.
   */
  private async fail(jobId: string, reason: string, code: string, failed = 0): Promise<void> {
    this.metrics.jobFailed(code);
    await this.lifecycle.move('fail', { jobId }, { reason, failed });
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

/** `page 4`, or `pages 4–6`. */
const pagesOf = ({ first, last }: PageRange) => (first === last ? `page ${first}` : `pages ${first}–${last}`);

/** What a range cancelled before it began holds. */
const NOTHING_READ: PdfPages = { pages: [], reports: [], stopped: true };

/** A range none of whose pages could be read, each reported failed for `reason`. */
function failedRange(range: PageRange, reason: string): PdfPages {
  const reports: PageReport[] = [];
  for (let page = range.first; page <= range.last; page++) reports.push({ page, source: 'failed', notes: [reason] });
  return { pages: [], reports, stopped: false };
}
