import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { JobEntity, JobFileEntity } from '@docconv/db';
import type { FileKind, PageReport } from '@docconv/documents';
import { deliveredOf } from '@docconv/billing';
import { uploadLimits } from '@docconv/jobs';
import { JobLifecycle } from '@docconv/lifecycle';
import { ConversionMetrics } from '@docconv/metrics';
import { OCR_LANGUAGES } from '@docconv/ocr';
import type { Extraction, OcrOptions, PageMarkdown } from '@docconv/reading';
import { imagePrefix, Storage } from '@docconv/storage';
import type { Transcriber } from '@docconv/transcription';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { TRANSCRIBER } from './engine-tokens';
import { transcribeRecording } from './transcribe-recording';
import { ExtractionPool, type CancelCheck } from './extraction-pool';

/** Reads one of the job's files; `onProgress` hears its pages done and seconds transcribed so far. */
export type FileReader = (
  file: JobFileEntity,
  onProgress: (pages: number, seconds: number) => void,
  /** Pages of the file final before it ends (a PDF read by OCR settles them as it goes). */
  onPages?: (pages: PageMarkdown[]) => void,
) => Promise<Extraction>;

/**
 * How a job's files are read on this worker: loaded from PostgreSQL in upload order, downloaded
 * to a local copy, read by the transcriber (audio, video) or in the extraction pool (the rest)
 * against the job's deadline and its owner's cancel, and recorded in the worker's metrics.
 */
@Injectable()
export class JobReading {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycle,
    private readonly extractions: ExtractionPool,
    private readonly metrics: ConversionMetrics,
    @Optional() @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null = null,
  ) {}

  /** The job's files in upload order. */
  filesOf(jobId: string): Promise<JobFileEntity[]> {
    return this.dataSource.getRepository(JobFileEntity).find({ where: { jobId }, order: { seq: 'ASC' } });
  }

  /** When the job must be done: its start plus the time a job may run. */
  deadlineOf(job: JobEntity): number {
    return job.startedAt!.getTime() + this.config.worker.maxRuntimeSeconds * 1000;
  }

  /**
   * Whether the job's owner has cancelled it, asked of PostgreSQL, where the request is recorded,
   * as pages are read (see readPageByPage) and after each file: only what finished before an answer
   * of no is delivered, so no page that finished after the request is charged. A job found
   * cancelled stays cancelled, and is not asked again.
   */
  cancelCheck(job: JobEntity): CancelCheck {
    let requested = job.cancelRequestedAt !== null; // cancelled while its first worker held it
    return async () => (requested ||= await this.lifecycle.cancelRequested(job.id));
  }

  /** What the extraction thread needs to read `file`, downloaded at `path`. */
  extractInput(job: JobEntity, file: JobFileEntity, path: string) {
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
      pageFurniture: job.pageFurniture,
      htmlContent: job.htmlContent,
      // Pages read by OCR take seconds to minutes each: they are delivered as they settle. Not
      // when a language model refines the file afterwards, which rewrites its Markdown.
      settlePages: kind === 'pdf' && file.needsOcr && !job.doclingRefinement,
    };
  }

  /** Runs `work` on a local copy of the file's input, removed afterwards. */
  async withLocalCopy<T>(file: JobFileEntity, work: (path: string) => Promise<T>): Promise<T> {
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
  fileReader(job: JobEntity, cancelled: CancelCheck): FileReader {
    const deadline = this.deadlineOf(job);
    return (file, onProgress, onPages) =>
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
                onPages,
              );
        const read = extraction.pages.filter((page) => page.source !== 'failed').length;
        const handed = deliveredOf(file, read, extraction.stopped === true);
        const seconds = (performance.now() - began) / 1000;
        this.record(kind, extraction.pages, seconds, handed ? handed.pages + handed.images : 0, job);
        return extraction;
      });
  }

  /** Records a file's (or page range's) conversion and each of its OCR'd pages in the worker's metrics. */
  record(kind: FileKind, reports: PageReport[], seconds: number, pages: number, job: JobEntity): void {
    const ocrd = reports.filter((page) => page.source === 'ocr' || page.source === 'text+ocr');
    this.metrics.fileConverted(kind, ocrd.length > 0 ? job.ocrEngine : 'none', seconds, pages);
    for (const page of ocrd)
      if (page.seconds !== undefined) this.metrics.ocrPage(page.engine ?? job.ocrEngine, job.ocrModel, page.seconds);
  }
}
