import { Injectable } from '@nestjs/common';
import { JobsService } from '@docconv/jobs';
import { Storage } from '@docconv/storage';
import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import { downloadName } from '../common/content-disposition';
import {
  toJobResponse,
  type ConfirmResponse,
  type JobListResponse,
  type JobResponse,
  type ListJobsQuery,
  type RefundResponse,
  type RetryResponse,
} from './jobs.dto';

const caller = (p: Principal) => ({ userId: p.userId, apiKeyId: p.apiKey?.id ?? null });

/** Turns the job lifecycle's results into the API's responses. */
@Injectable()
export class JobsViewService {
  constructor(
    private readonly jobs: JobsService,
    private readonly storage: Storage,
  ) {}

  async confirm(p: Principal, jobId: string): Promise<ConfirmResponse> {
    const { job, balance } = await this.jobs.confirm(caller(p), jobId);
    return { job_id: job.id, status: 'queued', remaining_points: balance };
  }

  async get(p: Principal, jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.get(p.userId, jobId));
  }

  async rename(p: Principal, jobId: string, title: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.rename(p.userId, jobId, title));
  }

  async action(p: Principal, jobId: string, action: 'retry' | 'refund'): Promise<RetryResponse | RefundResponse> {
    if (action === 'retry') {
      const job = await this.jobs.retry(p.userId, jobId);
      return { job_id: job.id, status: 'queued' };
    }
    const { points } = await this.jobs.refund(caller(p), jobId);
    return { refunded: true, points };
  }

  async cancel(p: Principal, jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.cancel(caller(p), jobId));
  }

  async list(p: Principal, query: ListJobsQuery): Promise<JobListResponse> {
    const { jobs, nextCursor } = await this.jobs.list(p.userId, query);
    return { jobs: jobs.map(toJobResponse), next_cursor: nextCursor };
  }

  async download(p: Principal, jobId: string): Promise<{ body: Readable; filename: string }> {
    const { job, path } = await this.jobs.resultPath(p.userId, jobId);
    return { body: await this.storage.stream(path), filename: downloadName(job.filename, 'md') };
  }
}
