import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DomainError } from '@docconv/contracts';
import { JobEntity, JobFileEntity } from '@docconv/db';
import { acceptedFormat, type FileKind, type PageReport, type ResultSource } from '@docconv/documents';
import { deliveredOf, type PricedFile } from '@docconv/billing';
import type { FilePageReport } from '@docconv/jobs';
import { JobLifecycle } from '@docconv/lifecycle';
import { writeMarkdown } from '@docconv/model';
import { failedFileBlock, failureOf, type Extraction } from '@docconv/reading';
import type { LanguageModel } from '@docconv/refine';
import { documentPath, imagePath, pageReportPath, Storage, structuredResultPath } from '@docconv/storage';
import { fileHeading, headedPart, PART_SEPARATOR, type DocumentPart } from './assemble-document';
import { LANGUAGE_MODEL } from './engine-tokens';
import { ExtractionPool, type CancelCheck } from './extraction-pool';
import type { Delivery } from './job-accounting';
import { JobReading, type FileReader } from './job-reading';
import { pagesOf } from './page-ranges';
import { PageDelivery, type PartOf } from './page-delivery';
import { ProgressWriter } from './progress-writer';
import { refineFile } from './refine-file';

/** A job's files converted: its Markdown, what its document is made of, and what was delivered. */
export interface Converted extends Delivery {
  markdown: string;
  /** Each file's stretch of `markdown`, with the document its reader built: the job's document is made of them. */
  parts: DocumentPart[];
  /** Why the files that could not be read failed. */
  failures: string[];
  /** Each file's stretch of `markdown`, with its placed pages. */
  sources: ResultSource[];
}

/** Files read page by page, each page delivered only if it finished before any cancel (see readPageByPage). */
const PAGED = new Set<FileKind>(['pdf', 'image']);

/**
 * The assembly of a job's result from its files: each file read (or reported failed), refined
 * when the job asks for it, and laid out in upload order as one Markdown, the parts its document
 * is made of and the sources its structured result maps; then the three stored side by side.
 */
@Injectable()
export class JobConversion {
  private readonly logger = new Logger(JobConversion.name);

  constructor(
    private readonly storage: Storage,
    private readonly lifecycle: JobLifecycle,
    private readonly extractions: ExtractionPool,
    private readonly reading: JobReading,
    @Optional() @Inject(LANGUAGE_MODEL) private readonly languageModel: LanguageModel | null = null,
  ) {}

  /**
   * The job's files to one Markdown, file by file, each read by `read`. A file that cannot be
   * read, or a page of it, is reported failed and the rest go on. Once `cancelled` says the owner
   * cancelled, nothing that finishes afterwards is delivered: a PDF or image keeps the pages
   * finished before an answer of no (its thread asks as it reads), a file read whole or refined
   * after the cancel is dropped, and the files after it are not started.
   */
  async convert(
    job: JobEntity,
    files: JobFileEntity[],
    cancelled: CancelCheck,
    readFile: FileReader,
  ): Promise<Converted> {
    const jobId = job.id;
    const progress = new ProgressWriter((done) => this.lifecycle.progress(jobId, done));
    const delivery = new PageDelivery(job, this.storage, this.lifecycle);
    await delivery.begin();
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
        // A transcript carries its own heading (the file's path); other files get one when there are several.
        const headed = !(files.length === 1 || kind === 'audio' || kind === 'video');
        const partOf: PartOf = { index: parts.length, file: file.displayPath, headed };
        let extraction: Extraction;
        try {
          extraction = await readFile(
            file,
            (pages, seconds) => progress.update(pagesBefore + pages, index, secondsBefore + seconds),
            (pages) => delivery.settled(partOf, pages),
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
          const part = writeMarkdown({
            version: 1,
            blocks: [fileHeading(file.displayPath), failedFileBlock(error.message, file.displayPath)],
          });
          parts.push({ file: file.displayPath, markdown: part, headed: true });
          await delivery.fileDone({ ...partOf, headed: true }, part, undefined);
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
            ? await refineFile(
                this.languageModel,
                extraction.markdown,
                handed?.pages ?? 0,
                file.displayPath,
                job,
                refinement,
                cancelled,
              )
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
        const part = headed ? headedPart(file.displayPath, markdown) : markdown;
        // The reader's document (and its pages) are the file's unless refinement rewrote its Markdown.
        const own = markdown === extraction.markdown;
        const document = own ? extraction.document : undefined;
        parts.push({ file: file.displayPath, markdown: part, headed, read: document });
        await delivery.fileDone(partOf, part, own ? extraction.pageMarkdown : undefined);
        sources.push({
          file: file.displayPath,
          kind,
          start: offset,
          end: offset + part.length,
          headed,
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
      await delivery.settledAll();
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

  /**
   * The Markdown, and beside it the structured result mapping its blocks to their files, pages and
   * boxes, and the document the Markdown is written from (what conversions render).
   */
  async storeResult(job: JobEntity, resultPath: string, converted: Converted): Promise<void> {
    const jobId = job.id;
    const [structured, document] = await Promise.all([
      this.extractions.structure(converted.markdown, converted.sources, this.reading.deadlineOf(job)),
      this.extractions.document(converted.parts, this.reading.deadlineOf(job)),
    ]);
    await this.storage.put(structuredResultPath(jobId), Buffer.from(structured, 'utf8'));
    if (document !== undefined) {
      await this.storage.put(documentPath(jobId), Buffer.from(document, 'utf8'));
    } else {
      // Conversions then read the Markdown back, as for a job finished before documents were stored.
      this.logger.warn(
        { job_id: jobId, markdown_bytes: converted.markdown.length },
        'No document.json: its files do not write its Markdown, or what would be read back is past MAX_READ_BACK_BYTES',
      );
      await this.storage.deletePrefix(documentPath(jobId)).catch(() => undefined);
    }
    await this.storage.put(resultPath, Buffer.from(converted.markdown, 'utf8'));
  }
}
