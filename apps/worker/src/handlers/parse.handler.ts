import { Injectable } from '@nestjs/common';
import type { JobPayload } from '@docconv/contracts';
import { ParseRunner, type ParseOutcome } from '@docconv/pipeline';
import type { Job } from 'bullmq';
import { JobHandler } from './job-handler.decorator';

@Injectable()
export class ParseHandler {
  constructor(private readonly runner: ParseRunner) {}

  @JobHandler('parse.run')
  run(payload: JobPayload<'parse.run'>, job: Job): Promise<ParseOutcome> {
    return this.runner.run(payload.jobId, { made: job.attemptsMade, max: job.opts.attempts ?? 1 });
  }
}
