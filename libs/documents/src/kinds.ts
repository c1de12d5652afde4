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
export type JobFileType = Exclude<FileKind, 'markdown'> | 'archive' | 'mixed';

/** One kind → that kind; anything from an archive → `archive`; several kinds or any Markdown → `mixed`. */
export function jobFileType(kinds: FileKind[], fromArchive: boolean): JobFileType {
  if (fromArchive) return 'archive';
  const distinct = new Set(kinds);
  if (distinct.size !== 1 || distinct.has('markdown')) return 'mixed';
  return kinds[0] as Exclude<FileKind, 'markdown'>;
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
}
