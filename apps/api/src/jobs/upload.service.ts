import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { JobsService } from '@docconv/jobs';
import type { Request } from 'express';
import type { Principal } from '../auth/principal';
import { toPreviewResponse, type PreviewResponse } from './jobs.dto';
import { receiveMultipart } from './multipart';
import { parseUploadOptions, type Capabilities } from './upload-options';

/** What this deployment runs today: native Tesseract; other engines, refinement and transcription are not installed. */
export const CAPABILITIES: Capabilities = { engines: ['tesseract'], refinement: false, transcription: false };

@Injectable()
export class UploadService {
  constructor(
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Receives the files, validates the options and returns the binding quote. Temporary files never outlive the request. */
  async upload(request: Request, caller: Principal): Promise<PreviewResponse> {
    const received = await receiveMultipart(request, {
      maxBytes: this.config.limits.maxUploadBytes,
      maxFiles: this.config.limits.maxFilesPerUpload,
    });
    try {
      const options = parseUploadOptions(received.fields, received.files, CAPABILITIES);
      const { job, balance } = await this.jobs.createPending(
        { userId: caller.userId, apiKeyId: caller.apiKey?.id ?? null },
        received.files,
        options,
      );
      return toPreviewResponse(job, balance);
    } finally {
      await received.cleanup();
    }
  }
}
