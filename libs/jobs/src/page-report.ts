import type { PageReport } from '@docconv/documents';

/**
 * One entry of a finished job's page report: for a page or image frame, whether it was read
 * from its text layer or by OCR, or failed; for a refined page, whether the language model's answer was
 * kept.
 */
export type FilePageReport =
  | (PageReport & { file: string })
  | { file: string; page: number; source: 'refinement'; refined: boolean; notes?: string[] };

/** Where a job's page report is stored, next to its Markdown. */
export const pageReportPath = (jobId: string): string => `results/${jobId}/pages.json`;

/** Where a job's structured result (typed blocks mapped into result.md) is stored, beside the Markdown. */
export const structuredResultPath = (jobId: string): string => `results/${jobId}/result.json`;
