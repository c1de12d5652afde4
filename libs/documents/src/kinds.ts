import type { ParseQueue } from '@docconv/contracts';
import { acceptedFormat, type FileKind } from './formats';

export type { FileKind } from './formats';
export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

/** `file_type` of a job (spec 2.2). */
export type JobFileType =
  'pdf' | 'docx' | 'pptx' | 'xlsx' | 'hwp' | 'hwpx' | 'image' | 'audio' | 'video' | 'archive' | 'mixed';

/**
 * Anything from an archive or an e-mail → `archive`; otherwise the one `file_type` all files
 * share (a DOC and an ODT are both `docx`), else `mixed`. Formats without a value of their own
 * (Markdown, HTML, plain text, EPUB, e-mail) are `mixed`.
 */
export function jobFileType(kinds: FileKind[], fromArchive: boolean): JobFileType {
  if (fromArchive) return 'archive';
  const distinct = new Set(kinds.map((kind) => acceptedFormat(kind).fileType));
  return distinct.size === 1 ? [...distinct][0] : 'mixed';
}

/** Which pool a job of mixed files goes to: the lowest rank any of its files needs. */
const QUEUE_RANK: Record<ParseQueue, number> = { speech: 0, office: 1, parse: 2 };

/**
 * The queue of the worker pool a job's files need: `speech` for any recording (the speech
 * model), else `office` for any file LibreOffice reads, else `parse` (text layers and OCR);
 * each format's pool is its row's `queue`.
 */
export function jobQueue(kinds: FileKind[]): ParseQueue {
  const queues = kinds.map((kind) => acceptedFormat(kind).queue);
  return queues.reduce<ParseQueue>(
    (chosen, queue) => (QUEUE_RANK[queue] < QUEUE_RANK[chosen] ? queue : chosen),
    'parse',
  );
}

export type DetectedFile = { kind: FileKind; mime: string } | { kind: 'archive'; mime: string; format: ArchiveFormat };

/** What intake measured of one file. */
export interface Inspection {
  /** PDF, office and HWP pages. */
  pages: number;
  /** Images; every TIFF frame counts. */
  images: number;
  /** Whole seconds of audio or video, rounded up. */
  durationSeconds: number;
  /** A PDF with pages that look scanned (no text layer on a sampled page): read by OCR, seconds a page. */
  needsOcr?: boolean;
}
