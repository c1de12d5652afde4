import type { ParseQueue } from '@docconv/contracts';
import { acceptedFormat } from './formats';

/** What a file is, decided from its content. Archives are containers and never a job's file. */
export type FileKind =
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'hwp'
  | 'hwpx'
  | 'image'
  | 'audio'
  | 'video'
  | 'markdown'
  | 'html'
  | 'text'
  | 'csv'
  | 'tsv'
  | 'epub'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'doc'
  | 'xls'
  | 'ppt'
  | 'rtf'
  | 'eml'
  | 'msg';
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

/** Kinds read through LibreOffice (converted to their OOXML counterpart first). */
const OFFICE_KINDS: ReadonlySet<FileKind> = new Set(['odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf']);

/**
 * The queue of the worker pool a job's files need: `speech` for any recording (the speech
 * model), else `office` for any file LibreOffice reads, else `parse` (text layers and OCR).
 */
export function jobQueue(kinds: FileKind[]): ParseQueue {
  if (kinds.some((kind) => kind === 'audio' || kind === 'video')) return 'speech';
  if (kinds.some((kind) => OFFICE_KINDS.has(kind))) return 'office';
  return 'parse';
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
