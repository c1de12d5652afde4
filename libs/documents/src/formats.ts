import type { ParseQueue } from '@docconv/contracts';
import type { JobFileType } from './kinds';

/**
 * One format the service reads: what people call it, the names its files carry, its
 * `file_type`, the worker pool that reads it, and whether a language model may refine its
 * reading.
 */
export interface FormatRow {
  /** How a person names it in a sentence: `PDF`, `Word 97–2003 (DOC)`. */
  label: string;
  /** File name endings, lower case with the dot; the first is the usual one. */
  extensions: string[];
  /** The contract's `file_type` a job of only this format reports. */
  fileType: Exclude<JobFileType, 'archive'>;
  /** The group it is listed under. */
  group: 'document' | 'image' | 'media' | 'text';
  /**
   * The worker pool that reads it: `parse` (text layers and OCR), `office` (through LibreOffice,
   * converted to its OOXML counterpart first) or `speech` (the speech model).
   */
  queue: ParseQueue;
  /** Layout refinement may rework its Markdown when the job asks for it (spec 4.3: PDF, office and HWP files). */
  refinable: boolean;
}

/** A format with its kind. */
export interface AcceptedFormat extends FormatRow {
  kind: FileKind;
}

/**
 * Every format the service accepts, one row each, in the order it is listed to people: the one
 * table `FileKind`, the detector's extension check, `file_type`, the job's queue, refinement,
 * the "unsupported format" message, `GET /capabilities`, the console's file picker and the CLI
 * read. Inspection (inspect.ts) and reading (extract.ts, worker-only) are maps by kind, so a
 * new row does not compile until it has both. Word-processing formats count as `docx`,
 * presentations as `pptx`, spreadsheets (CSV and TSV included) as `xlsx`; formats the contract
 * has no value for (HTML, plain text, EPUB, e-mail, Markdown) as `mixed`.
 */
const FORMATS = {
  pdf: { label: 'PDF', extensions: ['.pdf'], fileType: 'pdf', group: 'document', queue: 'parse', refinable: true },
  docx: {
    label: 'DOCX',
    extensions: ['.docx', '.docm', '.dotx'],
    fileType: 'docx',
    group: 'document',
    queue: 'parse',
    refinable: true,
  },
  pptx: {
    label: 'PPTX',
    extensions: ['.pptx', '.pptm', '.ppsx', '.potx'],
    fileType: 'pptx',
    group: 'document',
    queue: 'parse',
    refinable: true,
  },
  xlsx: {
    label: 'XLSX',
    extensions: ['.xlsx', '.xlsm', '.xltx'],
    fileType: 'xlsx',
    group: 'document',
    queue: 'parse',
    refinable: true,
  },
  hwp: { label: 'HWP', extensions: ['.hwp'], fileType: 'hwp', group: 'document', queue: 'parse', refinable: true },
  hwpx: { label: 'HWPX', extensions: ['.hwpx'], fileType: 'hwpx', group: 'document', queue: 'parse', refinable: true },
  odt: { label: 'ODT', extensions: ['.odt'], fileType: 'docx', group: 'document', queue: 'office', refinable: false },
  ods: { label: 'ODS', extensions: ['.ods'], fileType: 'xlsx', group: 'document', queue: 'office', refinable: false },
  odp: { label: 'ODP', extensions: ['.odp'], fileType: 'pptx', group: 'document', queue: 'office', refinable: false },
  doc: {
    label: 'DOC',
    extensions: ['.doc', '.dot'],
    fileType: 'docx',
    group: 'document',
    queue: 'office',
    refinable: false,
  },
  xls: {
    label: 'XLS',
    extensions: ['.xls', '.xlt'],
    fileType: 'xlsx',
    group: 'document',
    queue: 'office',
    refinable: false,
  },
  ppt: {
    label: 'PPT',
    extensions: ['.ppt', '.pps', '.pot'],
    fileType: 'pptx',
    group: 'document',
    queue: 'office',
    refinable: false,
  },
  rtf: { label: 'RTF', extensions: ['.rtf'], fileType: 'docx', group: 'document', queue: 'office', refinable: false },
  epub: {
    label: 'EPUB',
    extensions: ['.epub'],
    fileType: 'mixed',
    group: 'document',
    queue: 'parse',
    refinable: false,
  },
  eml: {
    label: 'e-mail (EML)',
    extensions: ['.eml'],
    fileType: 'mixed',
    group: 'document',
    queue: 'parse',
    refinable: false,
  },
  msg: {
    label: 'Outlook e-mail (MSG)',
    extensions: ['.msg'],
    fileType: 'mixed',
    group: 'document',
    queue: 'parse',
    refinable: false,
  },
  html: {
    label: 'HTML',
    extensions: ['.html', '.htm', '.xhtml'],
    fileType: 'mixed',
    group: 'text',
    queue: 'parse',
    refinable: false,
  },
  csv: { label: 'CSV', extensions: ['.csv'], fileType: 'xlsx', group: 'text', queue: 'parse', refinable: false },
  tsv: {
    label: 'TSV',
    extensions: ['.tsv', '.tab'],
    fileType: 'xlsx',
    group: 'text',
    queue: 'parse',
    refinable: false,
  },
  text: {
    label: 'plain text',
    extensions: ['.txt', '.text', '.log'],
    fileType: 'mixed',
    group: 'text',
    queue: 'parse',
    refinable: false,
  },
  markdown: {
    label: 'Markdown',
    extensions: ['.md', '.markdown'],
    fileType: 'mixed',
    group: 'text',
    queue: 'parse',
    refinable: false,
  },
  image: {
    label: 'images (PNG, JPEG, TIFF, WebP, BMP, GIF)',
    extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp', '.bmp', '.gif'],
    fileType: 'image',
    group: 'image',
    queue: 'parse',
    refinable: false,
  },
  audio: {
    label: 'audio (MP3, WAV, M4A, OGG, Opus, FLAC, WebM)',
    extensions: ['.mp3', '.wav', '.m4a', '.ogg', '.oga', '.opus', '.flac', '.webm'],
    fileType: 'audio',
    group: 'media',
    queue: 'speech',
    refinable: false,
  },
  video: {
    label: 'video (MP4, MOV, WebM, MKV, AVI)',
    extensions: ['.mp4', '.m4v', '.mov', '.webm', '.mkv', '.avi'],
    fileType: 'video',
    group: 'media',
    queue: 'speech',
    refinable: false,
  },
} satisfies Record<string, FormatRow>;

/** What a file is, decided from its content: a row of the format table. Archives are containers and never a job's file. */
export type FileKind = keyof typeof FORMATS;

/** The formats LibreOffice converts to their OOXML counterpart before they are read: the rows on the `office` queue. */
export type OfficeViaLibreOffice = {
  [K in FileKind]: (typeof FORMATS)[K]['queue'] extends 'office' ? K : never;
}[FileKind];

/** One entry for each format LibreOffice converts (an inspector, a reader), made by `make`. */
export function viaLibreOfficeEntries<V>(make: (kind: OfficeViaLibreOffice) => V): Record<OfficeViaLibreOffice, V> {
  const kinds = (Object.keys(FORMATS) as FileKind[]).filter(
    (kind): kind is OfficeViaLibreOffice => FORMATS[kind].queue === 'office',
  );
  return Object.fromEntries(kinds.map((kind) => [kind, make(kind)])) as Record<OfficeViaLibreOffice, V>;
}

/** The format table as a list, in its order. */
export const ACCEPTED_FORMATS: readonly AcceptedFormat[] = (Object.keys(FORMATS) as FileKind[]).map((kind) =>
  acceptedFormat(kind),
);

/** Archive endings; their members are read as files of the upload. */
export const ARCHIVE_EXTENSIONS = ['.zip', '.tar', '.tgz', '.tar.gz', '.gz'];

/** The accepted format of a kind: its row. */
export function acceptedFormat(kind: FileKind): AcceptedFormat {
  return { kind, ...FORMATS[kind] };
}

/** The formats an upload may hold here: audio and video only where transcription runs. */
export function acceptedFormats(media: boolean): AcceptedFormat[] {
  return ACCEPTED_FORMATS.filter((f) => media || f.group !== 'media');
}

/** The sentence an "unsupported format" answer ends with: what to upload instead. */
export function acceptedFormatsSentence(media: boolean): string {
  const labels = [...acceptedFormats(media).map((f) => f.label), 'archives (ZIP, TAR, TAR.GZ) of these'];
  return `Upload ${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}.`;
}
