import type { PageReport } from '@docconv/documents';

/**
 * One entry of a finished job's page report: for a page or image frame, whether it was read
 * from its text layer or by OCR, or failed; for a refined page, whether the language model's answer was
 * kept.
 */
export type FilePageReport =
  | (PageReport & { file: string })
  | { file: string; page: number; source: 'refinement'; refined: boolean; notes?: string[] };
