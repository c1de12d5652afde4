/** What a file is, decided from its content. */
export type FileKind = 'pdf' | 'image' | 'markdown';

/** `file_type` of a job (spec 2.2). */
export type JobFileType =
  'pdf' | 'docx' | 'pptx' | 'xlsx' | 'hwp' | 'hwpx' | 'image' | 'audio' | 'video' | 'archive' | 'mixed';

/** One kind → that kind; anything from an archive → `archive`; several kinds or any Markdown → `mixed`. */
export function jobFileType(kinds: FileKind[], fromArchive: boolean): JobFileType {
  if (fromArchive) return 'archive';
  const distinct = new Set(kinds);
  if (distinct.size !== 1 || distinct.has('markdown')) return 'mixed';
  return kinds[0] as Exclude<FileKind, 'markdown'>;
}

export interface DetectedFile {
  kind: FileKind;
  mime: string;
}

/** What intake measured of one file. */
export interface Inspection {
  pages: number;
  images: number;
  durationSeconds: number;
}
