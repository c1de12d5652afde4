import { Injectable } from '@nestjs/common';
import type { JobPayload } from '@docconv/contracts';
import { ParseRunner, type ParseOutcome, type RangeOutcome } from '@docconv/pipeline';
import type { Job } from 'bullmq';
import { attemptOf, JobHandler } from './job-handler.decorator';

@Injectable()
export class ParseHandler {
  constructor(private readonly runner: ParseRunner) {}

  /** A job of documents: text layers and OCR, on the parse pool. */
  @JobHandler('parse.run')
  run(payload: JobPayload<'parse.run'>, job: Job): Promise<ParseOutcome> {
    return this.runner.run(payload, attemptOf(job), job.opts.priority);
  }

  /** A job with a file LibreOffice reads, on the office pool. */
  @JobHandler('office.run')
  runOffice(payload: JobPayload<'office.run'>, job: Job): Promise<ParseOutcome> {
    return this.runner.run(payload, attemptOf(job), job.opts.priority);
  }

  /** A job with a recording, on the speech pool. */
  @JobHandler('speech.run')
  runSpeech(payload: JobPayload<'speech.run'>, job: Job): Promise<ParseOutcome> {
    return this.runner.run(payload, attemptOf(job), job.opts.priority);
  }

  @JobHandler('parse.range')
  readRange(payload: JobPayload<'parse.range'>, job: Job): Promise<RangeOutcome> {
    return this.runner.readRange(payload, attemptOf(job));
  }

  @JobHandler('parse.assemble')
  assemble(payload: JobPayload<'parse.assemble'>, job: Job): Promise<ParseOutcome> {
    return this.runner.assemble(payload, attemptOf(job));
  }
}
