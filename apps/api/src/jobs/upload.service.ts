import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { JobsService } from '@docconv/jobs';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { callerOf, type AuthenticatedRequest, type Principal } from '../auth/principal';
import { toPreviewResponse, type PreviewResponse } from './jobs.dto';
import { receiveMultipart } from './multipart';
import { CapabilitiesService } from '../capabilities/capabilities.service';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { idempotencyOwner } from '../idempotency/idempotent.interceptor';
import { parseUploadOptions } from './upload-options';

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

@Injectable()
export class UploadService {
  constructor(
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly capabilities: CapabilitiesService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Receives the files, validates the options and returns the binding quote. Temporary files never outlive the request. */
  async upload(request: AuthenticatedRequest, reply: FastifyReply, caller: Principal): Promise<PreviewResponse> {
    const received = await receiveMultipart(request.raw, reply.raw, {
      maxBytes: this.config.limits.maxUploadBytes,
      maxFiles: this.config.limits.maxFilesPerUpload,
      stallMs: this.config.http.bodyStallMs,
    });
    try {
      const create = async () => {
        const options = parseUploadOptions(received.fields, received.files, await this.capabilities.forUpload());
        const { job, balance, files } = await this.jobs.createPending(callerOf(caller), received.files, options);
        return toPreviewResponse(job, balance, files);
      };
      const key = this.idempotency.keyOf(request.headers['idempotency-key']);
      if (key === undefined) return await create();
      // The same upload is the same fields and the same files (names and contents), whatever
      // multipart boundary the client chose this time.
      const files = await Promise.all(
        received.files.map(async (f) => [f.filename, f.bytes, await sha256File(f.tempPath)]),
      );
      const fingerprint = this.idempotency.fingerprint('upload', Object.entries(received.fields).sort(), files);
      const { outcome, replayed } = await this.idempotency.run(
        idempotencyOwner(request),
        key,
        fingerprint,
        201,
        create,
      );
      if (replayed) reply.header('Idempotency-Replayed', 'true');
      return IdempotencyService.settle(outcome) as PreviewResponse;
    } finally {
      await received.cleanup();
    }
  }
}
