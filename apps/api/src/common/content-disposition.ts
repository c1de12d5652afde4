import { attachmentDisposition } from '@docconv/storage';

/** The Content-Disposition of a download: one rule for API downloads and signed links. */
export const contentDisposition = attachmentDisposition;

/** The job title with its extension replaced, e.g. `Report.pdf` → `Report.md`. */
export function downloadName(title: string, extension: string): string {
  const base = title.replace(/\.[A-Za-z0-9]{1,8}$/, '').trim() || 'result';
  return `${base}.${extension}`;
}
