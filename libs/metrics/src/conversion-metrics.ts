import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, MetricsRegistry } from './registry';

/** Buckets for a file's or a job's seconds: a one-page text file to an hour-long job. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Buckets for one page's OCR seconds (the page budget is 10 s by default). */
const OCR_PAGE_BUCKETS = [0.25, 0.5, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 30];

/** What a worker measures of its conversions; scraped from its metrics port (see MetricsServer). */
@Injectable()
export class ConversionMetrics {
  private readonly fileSeconds: Histogram<'format' | 'ocr_engine'>;
  private readonly pages: Counter<'format' | 'ocr_engine'>;
  private readonly ocrPageSeconds: Histogram<'engine' | 'model'>;
  private readonly jobSeconds: Histogram<'outcome'>;
  private readonly failures: Counter<'code'>;

  constructor({ registry }: MetricsRegistry) {
    const registers = [registry];
    this.fileSeconds = new Histogram({
      name: `${METRIC_PREFIX}file_conversion_seconds`,
      help: 'Seconds to turn one file into Markdown, by format and the OCR engine that read part of it (none when no page was OCR’d).',
      labelNames: ['format', 'ocr_engine'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.pages = new Counter({
      name: `${METRIC_PREFIX}pages_converted_total`,
      help: 'Pages (PDF pages, images, or a document counted as quoted) turned into Markdown; rate() gives pages per second.',
      labelNames: ['format', 'ocr_engine'],
      registers,
    });
    this.ocrPageSeconds = new Histogram({
      name: `${METRIC_PREFIX}ocr_page_seconds`,
      help: 'Seconds one page’s OCR took (orientation and every pass), by engine and model.',
      labelNames: ['engine', 'model'],
      buckets: OCR_PAGE_BUCKETS,
      registers,
    });
    this.jobSeconds = new Histogram({
      name: `${METRIC_PREFIX}job_duration_seconds`,
      help: 'Seconds from a parse attempt’s start to its end, by outcome (done, error, cancelled).',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.failures = new Counter({
      name: `${METRIC_PREFIX}job_failures_total`,
      help: 'Jobs that ended in error, by the error code their error_log was written for.',
      labelNames: ['code'],
      registers,
    });
  }

  fileConverted(format: string, ocrEngine: string, seconds: number, pages: number): void {
    this.fileSeconds.observe({ format, ocr_engine: ocrEngine }, seconds);
    this.pages.inc({ format, ocr_engine: ocrEngine }, pages);
  }

  ocrPage(engine: string, model: string, seconds: number): void {
    this.ocrPageSeconds.observe({ engine, model }, seconds);
  }

  jobEnded(outcome: 'done' | 'error' | 'cancelled', seconds: number): void {
    this.jobSeconds.observe({ outcome }, seconds);
  }

  jobFailed(code: string): void {
    this.failures.inc({ code });
  }
}
