import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, MAX_PRIORITY, type JobPayload } from '@docconv/contracts';
import { JobEntity, JobFileEntity } from '@docconv/db';
import { assemblePdf, withPageFurnitureOf, withPageStretches, type PdfPages } from '@docconv/reading';
import { Queues } from '@docconv/redis';
import { inputsPrefix, markdownPath, rangePath, rangesPrefix, Storage } from '@docconv/storage';
import { DataSource } from 'typeorm';
import { JobLifecycle } from '@docconv/lifecycle';
import { ConversionMetrics } from '@docconv/metrics';
import { ExtractionPool, NEVER_CANCELLED, type CancelCheck } from './extraction-pool';
import { undeliveredOf } from './job-accounting';
import { JobConversion, type Converted } from './job-conversion';
import { JobReading } from './job-reading';
import { failedRange, NOTHING_READ, pageRanges, rangePagesFor, spreads } from './page-ranges';
import { ProgressWriter } from './progress-writer';

/** How a parse attempt ended; `spread`: its pages were handed to `parse.range` jobs and a `parse.assemble`. */
export type ParseOutcome = 'done' | 'error' | 'cancelled' | 'skipped' | 'spread';

/** How a `parse.range` job ended: its pages read (or reported failed), or nothing to do. */
export type RangeOutcome = 'read' | 'skipped';

export interface Attempt {
  /** Attempts already made before this one. */
  made: number;
  max: number;
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
    private readonly reading: JobReading,
    private readonly conversion: JobConversion,
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
    const files = await this.reading.filesOf(jobId);
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
      this.conversion.convert(job, files, cancelled, this.reading.fileReader(job, cancelled)),
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
    const [file] = await this.reading.filesOf(job.id);
    const progress = new ProgressWriter((done) => this.lifecycle.rangeProgress(job.id, first, done.pages));
    try {
      const began = performance.now();
      const part = await this.reading.withLocalCopy(file, (path) =>
        this.extractions.readRange(
          this.reading.extractInput(job, file, path),
          { first, last },
          (done) => progress.update(done, 0, 0),
          this.reading.deadlineOf(job),
          this.reading.cancelCheck(job),
        ),
      );
      const pages = part.reports.filter((report) => report.source !== 'failed').length;
      this.reading.record('pdf', part.reports, (performance.now() - began) / 1000, pages, job);
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
    const files = await this.reading.filesOf(jobId);
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
      this.conversion.convert(job, files, NEVER_CANCELLED, async () =>
        withPageStretches(withPageFurnitureOf(assemblePdf(parts), job.pageFurniture)),
      ),
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
      const converted = await work(this.reading.cancelCheck(job));
      const undelivered = undeliveredOf(job, converted, this.config.pricing.prices);
      const resultPath = markdownPath(jobId);
      if (converted.stopped) {
        const kept = converted.delivered.length > 0;
        if (kept) await this.conversion.storeResult(job, resultPath, converted);
        await this.lifecycle.move('stopCancelled', { jobId }, { resultPath: kept ? resultPath : null, ...undelivered });
        await this.storage.deletePrefix(inputsPrefix(jobId)).catch(() => undefined);
        return 'cancelled';
      }
      if (converted.delivered.length === 0) {
        await this.fail(jobId, converted.failures.join(' '), 'file_processing_failed', converted.failed);
        return 'error';
      }
      await this.conversion.storeResult(job, resultPath, converted);
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
   * Ends the job in error with `reason` as its error_log and `failed` pages not read; `code` names
   * the failure in the metrics.
   */
  private async fail(jobId: string, reason: string, code: string, failed = 0): Promise<void> {
    this.metrics.jobFailed(code);
    await this.lifecycle.move('fail', { jobId }, { reason, failed });
  }
}
