import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, type JobPayload } from '@docconv/contracts';
import { conversionOf, JobEntity } from '@docconv/db';
import { documentOf, loadStoredResult } from '@docconv/jobs';
import { mapColumnsWithModel, type LanguageModel } from '@docconv/refine';
import { renderXlsxAdvanced } from '@docconv/render';
import { conversionPath, Storage } from '@docconv/storage';
import { DataSource } from 'typeorm';
import { advancedRecoveryNotes, JobLifecycle } from '@docconv/lifecycle';
import { LANGUAGE_MODEL } from './engine-tokens';
import type { Attempt } from './parse-runner';

export type ConversionOutcome = 'done' | 'error' | 'skipped';

/**
 * One XLSX Advanced run in the worker: the job's Markdown to a typed, merged workbook, stored
 * next to the Markdown. A problem with the job's own data ends the run in `error`, refundable,
 * with recovery notes; other faults are thrown so the queue retries them, and the last attempt
 * records them too. The language model, when configured, maps the requested columns, with the
 * deterministic mapping as the fallback.
 */
@Injectable()
export class XlsxAdvancedRunner {
  private readonly logger = new Logger(XlsxAdvancedRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: Storage,
    private readonly lifecycle: JobLifecycle,
    @Optional() @Inject(LANGUAGE_MODEL) private readonly languageModel: LanguageModel | null = null,
  ) {}

  async run(payload: JobPayload<'convert.xlsx-advanced'>, attempt: Attempt): Promise<ConversionOutcome> {
    const job = await this.dataSource.getRepository(JobEntity).findOneBy({ id: payload.jobId });
    // A run superseded by a newer one, refunded or already finished has nothing left to do.
    const run = job && conversionOf(job, 'xlsx_advanced');
    if (!job || run?.runId !== payload.conversionId || run.status !== 'processing') return 'skipped';
    try {
      if (!job.resultPath || !(await this.storage.exists(job.resultPath))) {
        throw new DomainError(
          'conversion_failed',
          'The Markdown result of this job could not be found in storage, so there was nothing to convert.',
        );
      }
      const document = documentOf(await loadStoredResult(this.storage, job));
      const model = this.languageModel;
      const { bytes, mismatches } = await renderXlsxAdvanced(document, {
        title: job.filename,
        columns: job.columns,
        mapColumns: model ? (headers, columns) => mapColumnsWithModel(model, headers, columns) : undefined,
      });
      const path = conversionPath(job.id, 'xlsx_advanced');
      await this.storage.put(path, bytes);
      await this.lifecycle.move(
        'finishAdvanced',
        { jobId: job.id, format: 'xlsx_advanced' },
        { runId: run.runId, path, notes: totalsNotes(mismatches) },
      );
      return 'done';
    } catch (error) {
      if (error instanceof DomainError) {
        await this.fail(job.id, payload.conversionId, error.message);
        return 'error';
      }
      if (attempt.made + 1 >= attempt.max) {
        this.logger.error({ err: error, job_id: job.id }, 'XLSX Advanced failed on its last attempt');
        await this.fail(job.id, payload.conversionId, 'The conversion failed because of an internal fault.');
        return 'error';
      }
      throw error;
    }
  }

  private async fail(jobId: string, conversionId: string, reason: string): Promise<void> {
    await this.lifecycle.move(
      'failAdvanced',
      { jobId, format: 'xlsx_advanced' },
      { runId: conversionId, notes: advancedRecoveryNotes(jobId, reason) },
    );
  }
}

/** The recovery notes of a finished run: the printed totals its rows do not add up to, or null when all do. */
function totalsNotes(mismatches: string[]): string | null {
  if (mismatches.length === 0) return null;
  return (
    `The workbook is complete, but ${mismatches.length} printed total${mismatches.length === 1 ? '' : 's'} ` +
    `did not match the rows above ${mismatches.length === 1 ? 'it' : 'them'} and stayed as printed: ${mismatches.join(' ')}`
  );
}
