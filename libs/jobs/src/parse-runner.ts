import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { JobFileEntity } from '@docconv/db';
import type { FileKind } from '@docconv/documents';
import { Storage } from '@docconv/storage';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { runExtraction } from './run-extraction';

export type ParseOutcome = 'done' | 'error' | 'skipped';

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
  ) {}

  async run(jobId: string, attempt: Attempt): Promise<ParseOutcome> {
    const started = await this.dataSource.query<{ started_at: Date }[]>(
      `WITH started AS (
         UPDATE jobs SET status = 'processing', started_at = coalesce(started_at, now()), done_pages = 0, done_files = 0
          WHERE id = $1 AND status IN ('queued', 'processing')
          RETURNING started_at)
       SELECT * FROM started`,
      [jobId],
    );
    if (started.length === 0) return 'skipped'; // cancelled, finished or unknown: nothing to do

    try {
      const markdown = await this.convert(
        jobId,
        started[0].started_at.getTime() + this.config.worker.maxRuntimeSeconds * 1000,
      );
      const resultPath = `results/${jobId}/result.md`;
      await this.storage.put(resultPath, Buffer.from(markdown, 'utf8'));
      await this.dataSource.query(
        `UPDATE jobs SET status = 'done', finished_at = now(), result_path = $2,
                done_pages = total_pages, done_files = total_files
          WHERE id = $1 AND status = 'processing'`,
        [jobId, resultPath],
      );
      return 'done';
    } catch (error) {
      if (error instanceof DomainError) {
        await this.fail(jobId, error.message);
        return 'error';
      }
      if (attempt.made + 1 >= attempt.max) {
        this.logger.error({ err: error, job_id: jobId }, 'Parse failed on its last attempt');
        await this.fail(
          jobId,
          `Processing failed after ${attempt.max} attempts because of an internal fault. Retry the job or ask for a refund.`,
        );
        return 'error';
      }
      throw error;
    }
  }

  private async convert(jobId: string, deadline: number): Promise<string> {
    const files = await this.dataSource.getRepository(JobFileEntity).find({ where: { jobId }, order: { seq: 'ASC' } });
    const folder = await mkdtemp(join(tmpdir(), 'docconv-parse-'));
    const progress = new ProgressWriter(this.dataSource, jobId);
    try {
      const parts: string[] = [];
      let pagesBefore = 0;
      for (const [index, file] of files.entries()) {
        const local = join(folder, String(file.seq));
        await pipeline(await this.storage.stream(file.storagePath), createWriteStream(local));
        const markdown = await runExtraction(
          {
            path: local,
            kind: file.kind as FileKind,
            mime: file.mimeType,
            displayName: file.displayPath,
            units: file.kind === 'pdf' ? file.pages : file.images,
          },
          (done) => progress.update(pagesBefore + (file.kind === 'pdf' ? done : 0), index),
          deadline,
        );
        pagesBefore += file.pages;
        progress.update(pagesBefore, index + 1);
        parts.push(files.length === 1 ? markdown : `## ${file.displayPath}\n\n${markdown.trim()}\n`);
        await rm(local, { force: true });
      }
      await progress.flush();
      return files.length === 1 ? parts[0] : parts.join('\n');
    } finally {
      progress.stop();
      await rm(folder, { recursive: true, force: true });
    }
  }

  private async fail(jobId: string, message: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE jobs SET status = 'error', refundable = true, error_log = $2, finished_at = now()
        WHERE id = $1 AND status = 'processing'`,
      [jobId, message],
    );
  }
}

/** Keeps the latest progress and writes it at most once per interval. */
class ProgressWriter {
  private pages = 0;
  private files = 0;
  private dirty = false;
  private lastWrite = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobId: string,
  ) {}

  update(pages: number, files: number): void {
    this.pages = pages;
    this.files = files;
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
    const [pages, files] = [this.pages, this.files];
    this.writing = this.writing
      .then(() =>
        this.dataSource.query(
          `UPDATE jobs SET done_pages = $2, done_files = $3 WHERE id = $1 AND status = 'processing'`,
          [this.jobId, pages, files],
        ),
      )
      .then(
        () => undefined,
        () => undefined,
      );
    return this.writing;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
