import { Module } from '@nestjs/common';
import { JobsModule } from '@docconv/jobs';
import { ConversionMetrics } from '@docconv/metrics';
import { ExtractionPool } from './extraction-pool';
import { JobConversion } from './job-conversion';
import { JobReading } from './job-reading';
import { ParseRunner } from './parse-runner';
import { XlsxAdvancedRunner } from './xlsx-advanced.runner';

/**
 * The worker's conversion pipeline: parse runs (extraction threads, OCR, transcription,
 * refinement) and XLSX Advanced runs. Only the worker imports it (lint keeps the API from doing
 * so). Needs the engines (TRANSCRIBER, LANGUAGE_MODEL), queues and storage registered by the app.
 */
@Module({
  imports: [JobsModule],
  providers: [ExtractionPool, JobReading, JobConversion, ParseRunner, XlsxAdvancedRunner, ConversionMetrics],
  exports: [ParseRunner, XlsxAdvancedRunner, JobsModule],
})
export class PipelineModule {}
