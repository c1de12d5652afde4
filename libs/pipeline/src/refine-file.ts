import { DomainError } from '@docconv/contracts';
import type { JobEntity } from '@docconv/db';
import type { FilePageReport } from '@docconv/jobs';
import { refinePage, splitIntoPages, type LanguageModel } from '@docconv/refine';
import type { CancelCheck } from './extraction-pool';

/**
 * Layout refinement of one file by the language model (`model`; null: none is configured on this
 * worker, and the job fails refundable), page by page as charged: the file's Markdown cut into
 * its `pages` and each piece sent with the job's prompt and columns. A piece the guard rejects
 * stays as extracted, and the result says so; each page's outcome is pushed to `report`. A cancel
 * while it runs leaves the file undelivered (undefined): its refined pages would finish after it.
 */
export async function refineFile(
  model: LanguageModel | null,
  markdown: string,
  pages: number,
  displayName: string,
  job: Pick<JobEntity, 'prompt' | 'columns'>,
  report: FilePageReport[],
  cancelled: CancelCheck,
): Promise<string | undefined> {
  if (!model)
    throw new DomainError(
      'refinement_unavailable',
      `${displayName}: layout refinement is not configured on this worker. Ask for a refund, or upload again without docling_refinement.`,
    );
  const pieces = splitIntoPages(markdown, pages);
  const out: string[] = [];
  for (const [i, piece] of pieces.entries()) {
    const page = i + 1;
    const outcome = await refinePage(model, {
      markdown: piece,
      prompt: job.prompt,
      columns: job.columns,
      pageLabel: `page ${page} of ${displayName}`,
    });
    report.push({
      file: displayName,
      page,
      source: 'refinement',
      refined: outcome.refined,
      notes: outcome.note ? [outcome.note] : undefined,
    });
    out.push(
      outcome.refined ? outcome.markdown.trim() : `${piece}\n\n<!-- ${outcome.note ?? 'Kept as extracted.'} -->`,
    );
    if (await cancelled()) return undefined;
  }
  return out.join('\n\n') + '\n';
}
