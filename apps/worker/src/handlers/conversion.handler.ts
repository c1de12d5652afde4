import { Injectable } from '@nestjs/common';
import type { JobPayload } from '@docconv/contracts';
import { XlsxAdvancedRunner, type ConversionOutcome } from '@docconv/pipeline';
import type { Job } from 'bullmq';
import { attemptOf, JobHandler } from './job-handler.decorator';

@Injectable()
export class ConversionHandler {
  constructor(private readonly runner: XlsxAdvancedRunner) {}

  @JobHandler('convert.xlsx-advanced')
  run(payload: JobPayload<'convert.xlsx-advanced'>, job: Job): Promise<ConversionOutcome> {
    return this.runner.run(payload, attemptOf(job));
  }
}
