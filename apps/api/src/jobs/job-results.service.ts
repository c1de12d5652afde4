import { Injectable } from '@nestjs/common';
import { DomainError } from '@docconv/contracts';
import {
  CONVERSION_EXTENSIONS,
  conversionPath,
  invalidState,
  JobsService,
  pageReportPath,
  resultFilePath,
  structuredResultPath,
  type ConversionFormat,
  type FilePageReport,
} from '@docconv/jobs';
import { conversionOf } from '@docconv/db';
import { contentTypeOf, downloadName, pageEventPath, previewPath, Storage } from '@docconv/storage';
import {
  chunksInThread,
  renderPreview,
  structuredResult,
  TOKENIZER,
  type Chunk,
  type ChunkList,
  type FileKind,
  type StructuredResult,
} from '@docconv/documents';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import type { ChunksQuery } from './chunks.dto';
import type { PageReportResponse, ResultFormat } from './jobs.dto';

/**
 * What a job produced, read back from storage: its Markdown, structured result and converted
 * files, its page previews and its page report, each behind the job's own ownership and state
 * rule (`JobsService.resultPath`).
 */
@Injectable()
export class JobResultsService {
  /**
   * The chunks of the results asked for last, by job and options: a client pages through a long
   * result's chunks, and each page must not tokenize the whole result again. A finished job's
   * result never changes, so an entry is never stale; a few are kept, the oldest dropped first.
   */
  private readonly chunkings = new Map<string, Promise<Chunk[]>>();

  constructor(
    private readonly jobs: JobsService,
    private readonly storage: Storage,
  ) {}

  /** The Markdown, or with `format` a file already produced by a conversion. */
  async download(
    p: Principal,
    jobId: string,
    format: ResultFormat | ConversionFormat = 'md',
  ): Promise<{ body: Readable; filename: string; contentType: string }> {
    const { job, path } = await this.jobs.resultPath(p.userId, jobId);
    if (format === 'json') {
      const structured = await this.structured(p, jobId, path);
      return {
        body: Readable.from([Buffer.from(JSON.stringify(structured), 'utf8')]),
        filename: downloadName(job.filename, 'json'),
        contentType: contentTypeOf('result.json'),
      };
    }
    if (format === 'zip') {
      const zip = new JSZip();
      const structured = await this.structured(p, jobId, path);
      zip.file('result.md', await this.storage.read(path));
      zip.file('result.json', JSON.stringify(structured, null, 2));
      const images = new Set(structured.blocks.flatMap((block) => (block.image ? [block.image] : [])));
      for (const image of images) {
        const stored = resultFilePath(jobId, image);
        if (stored && (await this.storage.exists(stored))) zip.file(image, await this.storage.read(stored));
      }
      return {
        body: zip.generateNodeStream({ type: 'nodebuffer', compression: 'DEFLATE', streamFiles: true }) as Readable,
        filename: downloadName(job.filename, 'zip'),
        contentType: 'application/zip',
      };
    }
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
      filename: downloadName(job.filename, CONVERSION_EXTENSIONS[format]),
      contentType: contentTypeOf(converted),
    };
  }

  /**
   * The pages of the job's result finished so far (see PageDelivery), joined in order: while it is
   * processing, the beginning of its result; once it has ended, its result (or what a cancel kept).
   */
  async partial(
    p: Principal,
    jobId: string,
  ): Promise<{ body: Buffer; filename: string; pages: number; complete: boolean }> {
    const job = await this.jobs.get(p.userId, jobId);
    if (job.status === 'pending') {
      throw invalidState(`This job is not confirmed yet: confirm it with POST /api/v1/jobs/${jobId}/confirm first.`);
    }
    const parts: Buffer[] = [];
    for (let seq = 1; seq <= job.pageEvents; seq++) {
      const page = JSON.parse(
        (await this.storage.read(pageEventPath(jobId, job.retryCount, seq))).toString('utf8'),
      ) as {
        markdown: string;
      };
      parts.push(Buffer.from(page.markdown, 'utf8'));
    }
    return {
      body: Buffer.concat(parts),
      filename: downloadName(job.filename, 'md'),
      pages: job.pageEvents,
      complete: job.status === 'done',
    };
  }

  /** A page of the chunks of a finished job's result (free, like the download). */
  async chunks(p: Principal, jobId: string, query: ChunksQuery): Promise<ChunkList> {
    const { path } = await this.jobs.resultPath(p.userId, jobId);
    const { strategy, max_tokens, overlap_tokens, limit } = query;
    if (overlap_tokens * 2 > max_tokens) {
      throw new DomainError(
        'validation_failed',
        `overlap_tokens must be at most half of max_tokens (${Math.floor(max_tokens / 2)} for max_tokens=${max_tokens}); got ${overlap_tokens}.`,
      );
    }
    const key = `${jobId}/${strategy}/${max_tokens}/${overlap_tokens}`;
    let chunking = this.chunkings.get(key);
    this.chunkings.delete(key); // kept again below, as the newest
    if (chunking) this.chunkings.set(key, chunking);
    else {
      chunking = (async () => {
        const markdown = (await this.storage.read(path)).toString('utf8');
        const result = await this.structured(p, jobId, path);
        return chunksInThread({
          markdown,
          result,
          options: { strategy, maxTokens: max_tokens, overlapTokens: overlap_tokens },
        });
      })();
      this.chunkings.set(key, chunking);
      chunking.catch(() => this.chunkings.delete(key));
      while (this.chunkings.size > KEPT_CHUNKINGS) this.chunkings.delete(this.chunkings.keys().next().value!);
    }
    const all = await chunking;
    const from = query.cursor === undefined ? 0 : cursorIndex(query.cursor, all.length);
    const next = from + limit;
    return {
      job_id: jobId,
      strategy,
      max_tokens,
      overlap_tokens,
      tokenizer: TOKENIZER,
      total: all.length,
      chunks: all.slice(from, next),
      next_cursor: next < all.length ? String(next) : null,
    };
  }

  /**
   * The job's structured result as the worker stored it beside the Markdown; for a job finished
   * before results were structured, the blocks of its Markdown alone (no pages or boxes).
   */
  private async structured(p: Principal, jobId: string, markdownPath: string): Promise<StructuredResult> {
    const path = structuredResultPath(jobId);
    if (await this.storage.exists(path))
      return JSON.parse((await this.storage.read(path)).toString('utf8')) as StructuredResult;
    const markdown = (await this.storage.read(markdownPath)).toString('utf8');
    const { job, files } = await this.jobs.files(p.userId, jobId);
    const kind = (files.length === 1 ? files[0].kind : 'markdown') as FileKind;
    return structuredResult(markdown, [{ file: job.filename, kind, start: 0, end: markdown.length, headed: false }]);
  }

  /**
   * A PNG preview of page `page` of the job's file `file` (its number in the job, from 1): a PDF's
   * page or an image's frame, rendered once and kept with the results.
   */
  async pagePreview(p: Principal, jobId: string, file: number, pageParam: string): Promise<Buffer> {
    await this.jobs.resultPath(p.userId, jobId); // the same ownership and state rules as the download
    // Checked after the job is known to be the caller's: another user's job is a 404 whatever the page.
    if (!/^[1-9]\d{0,5}$/.test(pageParam)) {
      throw new DomainError(
        'validation_failed',
        `The page must be a whole number from 1 (got "${pageParam.slice(0, 20)}").`,
      );
    }
    const page = Number(pageParam);
    const { files } = await this.jobs.files(p.userId, jobId);
    const found = files.find((f) => f.seq === file);
    if (!found) throw invalidState(`This job has ${files.length} file(s); there is no file ${file}.`);
    if (found.kind !== 'pdf' && found.kind !== 'image') {
      throw invalidState(`File ${file} of this job is not a PDF or an image: only their pages have previews.`);
    }
    const count = found.kind === 'pdf' ? found.pages : found.images;
    if (page > count) throw invalidState(`File ${file} of this job has ${count} page(s); there is no page ${page}.`);
    const cached = previewPath(jobId, file, page);
    if (await this.storage.exists(cached)) return this.storage.read(cached);
    const folder = await mkdtemp(join(tmpdir(), 'docconv-preview-'));
    try {
      const local = join(folder, 'input');
      await pipeline(await this.storage.stream(found.storagePath), createWriteStream(local));
      const png = await renderPreview(local, found.kind, page);
      await this.storage.put(cached, png);
      return png;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
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

/** How many chunkings JobResultsService keeps. */
const KEPT_CHUNKINGS = 8;

/** The chunk a cursor of GET /jobs/{job_id}/chunks points at (its `next_cursor` is the index of the next chunk). */
function cursorIndex(cursor: string, total: number): number {
  const index = /^\d{1,9}$/.test(cursor) ? Number(cursor) : NaN;
  if (!(index <= total)) {
    throw new DomainError(
      'validation_failed',
      'cursor is not one this result gave: pass the next_cursor of the previous page, or leave it out for the first.',
    );
  }
  return index;
}
