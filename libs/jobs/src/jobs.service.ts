import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { FreePagesService, LedgerService, measure, quote, type PricedFile } from '@docconv/billing';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { JobEntity, JobFileEntity, type JobStatus } from '@docconv/db';
import { jobFileType, jobQueue, type IntakeFile, type IntakeResult } from '@docconv/documents';
import { JobLifecycle, MAX_RETRIES } from '@docconv/lifecycle';
import { inputPath, inputsPrefix, Storage } from '@docconv/storage';
import { assertCallbackUrlAllowed } from '@docconv/webhooks';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type EntityManager } from 'typeorm';
import { invalidState, jobNotFound } from './job-errors';
import { readJobSummary, type JobSummary } from './job-summary';
import { safeName } from './safe-name';
import { jobTitle } from './job-title';
import { IntakeService } from './intake.service';
import type { Caller, ReceivedFile, UploadOptions } from './upload.types';

/** An inspected file in the units it is priced in. */
const priced = (file: IntakeFile): PricedFile => ({ kind: file.kind, ...file.inspection });

/** A pending job's quote is binding for this long; then the job is cancelled. */
export const QUOTE_VALIDITY_HOURS = 24;
/** How long a cancel of a processing job waits for the worker to stop before it answers. */
const CANCEL_WAIT_MS = 10_000;

export interface CreatedJob {
  job: JobEntity;
  balance: number;
  /** The job's files, in order. */
  files: JobFileEntity[];
}

export interface ListQuery {
  status?: JobStatus;
  limit: number;
  cursor?: string;
}

/**
 * Jobs as the API serves them: uploads priced into pending jobs, and the user's moves of them
 * (confirm, retry, refund, cancel), each made by the job lifecycle, which owns the job's state.
 */
@Injectable()
export class JobsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: LedgerService,
    private readonly freePages: FreePagesService,
    private readonly storage: Storage,
    private readonly lifecycle: JobLifecycle,
    private readonly intakeService: IntakeService,
  ) {}

  /** Checks the callback URL, inspects the files, stores them and creates the pending job with its binding quote. */
  async createPending(caller: Caller, received: ReceivedFile[], options: UploadOptions): Promise<CreatedJob> {
    if (options.callbackUrl) await assertCallbackUrlAllowed(options.callbackUrl, this.config.webhooks);
    const work = await mkdtemp(join(tmpdir(), 'docconv-intake-'));
    try {
      return await this.createFromIntake(caller, await this.intake(received, work, options), options);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private async intake(received: ReceivedFile[], work: string, options: UploadOptions): Promise<IntakeResult> {
    const { limits } = this.config;
    const result = await this.intakeService.inspect(received, work, {
      media: options.transcription,
      htmlContent: options.htmlContent,
    });
    const { pages } = measure(result.files.map(priced));
    if (pages > limits.maxPagesPerUpload) {
      throw new DomainError(
        'payload_too_large',
        `This upload has ${pages} pages; the limit is ${limits.maxPagesPerUpload}. Split it into smaller uploads.`,
      );
    }
    return result;
  }

  private async createFromIntake(
    caller: Caller,
    { files, skipped }: IntakeResult,
    options: UploadOptions,
  ): Promise<CreatedJob> {
    const media = files.filter((f) => f.kind === 'audio' || f.kind === 'video');
    if (media.length > 0 && !options.transcription) {
      throw new DomainError(
        'transcription_unavailable',
        `${media[0].displayPath} is ${media[0].kind}, and transcription is not available on this server. Upload documents, images or Markdown.`,
      );
    }
    const measured = measure(files.map(priced));
    const { pages, images } = measured;

    const jobId = randomUUID();
    const stored: JobFileEntity[] = [];
    try {
      for (const [index, file] of files.entries()) {
        const storagePath = inputPath(jobId, index + 1, safeName(file.displayPath));
        const { bytes } = await this.storage.put(storagePath, createReadStream(file.path));
        stored.push(
          Object.assign(new JobFileEntity(), {
            jobId,
            seq: index + 1,
            displayPath: file.displayPath,
            storagePath,
            kind: file.kind,
            mimeType: file.mime,
            bytes,
            pages: file.inspection.pages,
            images: file.inspection.images,
            durationSeconds: file.inspection.durationSeconds,
            needsOcr: file.inspection.needsOcr ?? false,
          }),
        );
      }
      return await this.dataSource.transaction(async (m) => {
        // The job's row will reference the key: its lock is taken first, in the ledger's order (key,
        // then user), so an upload and a confirm through one key cannot deadlock.
        if (caller.apiKeyId) await m.query('SELECT 1 FROM api_keys WHERE id = $1 FOR KEY SHARE', [caller.apiKeyId]);
        // One upload at a time per user, so two uploads cannot count the same free pages.
        const [user] = await m.query<{ points_balance: string }[]>(
          'SELECT points_balance FROM users WHERE id = $1 FOR UPDATE',
          [caller.userId],
        );
        if (!user) throw new DomainError('user_not_found', 'This account no longer exists.');
        const freePagesLeft = (await this.freePages.allowance(caller.userId, m)).left;
        const q = quote(
          {
            measured,
            model: options.model,
            refinement: options.refinement,
            freePagesLeft,
          },
          this.config.pricing.prices,
        );
        const { refinementPages, ...cost } = q;
        const job = m.create(JobEntity, {
          id: jobId,
          userId: caller.userId,
          apiKeyId: caller.apiKeyId,
          status: 'pending',
          ocrModel: options.model,
          ocrEngine: options.engine,
          fileType: jobFileType(
            files.map((f) => f.kind),
            files.some((f) => f.fromArchive),
          ),
          parseQueue: jobQueue(files.map((f) => f.kind)),
          filename: jobTitle(files),
          totalPages: pages,
          totalFiles: files.length,
          imageCount: images,
          audioSeconds: cost.audio_seconds,
          videoSeconds: cost.video_seconds,
          mediaDurationSeconds: cost.audio_seconds + cost.video_seconds,
          doclingRefinement: options.refinement,
          doclingRefinementPages: refinementPages,
          dpi: options.dpi,
          pageFurniture: options.pageFurniture ?? 'drop',
          htmlContent: options.htmlContent ?? 'main',
          columns: options.columns,
          prompt: options.prompt,
          callbackUrl: options.callbackUrl ?? null,
          quote: cost,
          skippedFiles: skipped.map((f) => ({ path: f.displayPath, reason: f.reason })),
          quotedPoints: cost.points,
          freePagesUsed: cost.free_pages_used,
          expiresAt: new Date(Date.now() + QUOTE_VALIDITY_HOURS * 3600_000),
        });
        await m.insert(JobEntity, job);
        await m.insert(JobFileEntity, stored);
        return {
          job: await m.findOneByOrFail(JobEntity, { id: jobId }),
          balance: Number(user.points_balance),
          files: stored,
        };
      });
    } catch (error) {
      await this.storage.deletePrefix(inputsPrefix(jobId)).catch(() => undefined);
      throw error;
    }
  }

  /** Charges exactly the quoted points and queues the job. */
  async confirm(caller: Caller, jobId: string): Promise<{ job: JobEntity; balance: number }> {
    return this.lifecycle.transaction(async (tx) => {
      const moved = await tx.move('confirm', { jobId, userId: caller.userId }, { apiKeyId: caller.apiKeyId });
      if (!moved) {
        const current = await this.find(tx.manager, caller.userId, jobId);
        if (current.status === 'pending') {
          throw invalidState(
            'This quote has expired (quotes are valid for 24 hours). Upload the files again for a new one.',
          );
        }
        throw invalidState(`The job is ${current.status}, not pending: only a pending job can be confirmed.`);
      }
      const balance = moved.posted?.transaction.balanceAfter ?? (await this.ledger.balanceOf(caller.userId));
      return { job: moved.job, balance };
    }, caller.userId);
  }

  /** The user's job as its record reads: one prepared statement, no entity built. */
  async get(userId: string, jobId: string): Promise<JobSummary> {
    const job = await readJobSummary(this.dataSource, jobId, userId);
    if (!job) throw jobNotFound();
    return job;
  }

  async rename(userId: string, jobId: string, title: string): Promise<JobSummary> {
    if (!(await this.lifecycle.rename(userId, jobId, title))) throw jobNotFound();
    return this.get(userId, jobId);
  }

  /** Re-dispatches a failed job at no cost, up to MAX_RETRIES times. */
  async retry(userId: string, jobId: string): Promise<JobEntity> {
    return this.lifecycle.transaction(async (tx) => {
      const moved = await tx.move('retry', { jobId, userId }, {});
      if (moved) return moved.job;
      const current = await this.find(tx.manager, userId, jobId);
      if (current.status === 'error' && current.refundable && current.retryCount >= MAX_RETRIES) {
        throw invalidState(`This job has been retried ${MAX_RETRIES} times; ask for a refund instead.`);
      }
      throw invalidState(notRetryable(current));
    });
  }

  /** Returns every point deducted for the job, once. The job stays `error`. */
  async refund(caller: Caller, jobId: string): Promise<{ points: number }> {
    return this.lifecycle.transaction(async (tx) => {
      const moved = await tx.move('refund', { jobId, userId: caller.userId }, { apiKeyId: caller.apiKeyId });
      if (!moved) throw invalidState(notRetryable(await this.find(tx.manager, caller.userId, jobId), 'refunded'));
      return { points: moved.job.costPoints };
    }, caller.userId);
  }

  /**
   * pending → cancelled (nothing was charged); queued → cancelled with a full refund;
   * processing → the worker stops after the page in hand, keeps the pages finished and refunds
   * the rest. For a processing job the answer waits a few seconds for the worker to stop and
   * returns the job as it is then (still `processing` if the worker has not stopped yet).
   */
  async cancel(caller: Caller, jobId: string): Promise<JobSummary> {
    const { job, stopping } = await this.lifecycle.transaction(async (tx) => {
      const target = { jobId, userId: caller.userId };
      const cancelled = await tx.move('cancel', target, { apiKeyId: caller.apiKeyId });
      if (cancelled) return { job: cancelled.job, stopping: false };
      const requested = await tx.move('requestCancel', target, {});
      if (requested) return { job: requested.job, stopping: true };
      const current = await this.find(tx.manager, caller.userId, jobId);
      if (current.status === 'processing') return { job: current, stopping: true }; // asked already
      throw invalidState(`The job is ${current.status}: only pending, queued or processing jobs can be cancelled.`);
    }, caller.userId);
    if (!stopping) {
      await this.storage.deletePrefix(inputsPrefix(job.id)).catch(() => undefined);
      return job;
    }
    const deadline = Date.now() + CANCEL_WAIT_MS;
    for (;;) {
      const current = await this.get(caller.userId, jobId);
      if (current.status === 'cancelled' || (current.status === 'processing' && Date.now() > deadline)) return current;
      if (current.status !== 'processing') {
        throw invalidState(
          `The job ended ${current.status} before the cancellation reached it, so nothing was stopped or refunded.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Newest first, with an opaque cursor for the next page. */
  async list(userId: string, query: ListQuery): Promise<{ jobs: JobEntity[]; nextCursor: string | null }> {
    const qb = this.dataSource
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .leftJoinAndSelect('j.conversions', 'c')
      .where('j.user_id = :userId', { userId })
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .take(query.limit + 1);
    if (query.status) qb.andWhere('j.status = :status', { status: query.status });
    if (query.cursor) {
      const { createdAt, id } = decodeCursor(query.cursor);
      qb.andWhere('(j.created_at, j.id) < (:createdAt, :id)', { createdAt, id });
    }
    const rows = await qb.getMany();
    const jobs = rows.slice(0, query.limit);
    const last = jobs[jobs.length - 1];
    return { jobs, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  /** The stored Markdown of a finished job, or of the pages a job cancelled while processing had finished. */
  async resultPath(userId: string, jobId: string): Promise<{ job: JobEntity; path: string }> {
    const job = await this.find(this.dataSource.manager, userId, jobId);
    if (job.resultPath && (job.status === 'done' || job.status === 'cancelled')) return { job, path: job.resultPath };
    if (job.status === 'cancelled') {
      throw invalidState('The job was cancelled before any page was converted; there is nothing to download.');
    }
    throw invalidState(`The job is ${job.status}; its result can be downloaded once it is done.`);
  }

  /** A job with its files, in order (the owner's only). */
  async files(userId: string, jobId: string): Promise<{ job: JobEntity; files: JobFileEntity[] }> {
    const job = await this.find(this.dataSource.manager, userId, jobId);
    const files = await this.dataSource.getRepository(JobFileEntity).find({ where: { jobId }, order: { seq: 'ASC' } });
    return { job, files };
  }

  /**
   * The job with its conversions in one query. (`findOneBy` with the eager relation costs two: a
   * SELECT DISTINCT of the ids under its LIMIT 1, then the joined rows.)
   */
  private async find(m: EntityManager, userId: string, jobId: string): Promise<JobEntity> {
    const job = await m
      .createQueryBuilder(JobEntity, 'job')
      .leftJoinAndSelect('job.conversions', 'conversion')
      .where('job.id = :jobId AND job.user_id = :userId', { jobId, userId })
      .getOne();
    if (!job) throw jobNotFound();
    return job;
  }
}

function notRetryable(job: JobEntity, done: 'refunded' | 'retried' = 'retried'): string {
  if (job.status !== 'error') return `The job is ${job.status}: only a failed job can be ${done}.`;
  return job.refundedPoints > 0 || job.refundedAt
    ? 'This job has already been refunded.'
    : `This job cannot be ${done}.`;
}

function encodeCursor(job: JobEntity): string {
  return Buffer.from(`${job.createdAt.toISOString()}|${job.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new DomainError('validation_failed', 'The cursor is not one this API returned. Start again without it.', {
      errors: [{ field: 'cursor', message: 'is not a valid cursor' }],
    });
  }
  return { createdAt, id };
}
