import type { FileKind, JobFileType } from './kinds';

/** One format the service reads: what people call it, the names its files carry, and its `file_type`. */
export interface AcceptedFormat {
  kind: FileKind;
  /** How a person names it in a sentence: `PDF`, `Word 97–2003 (DOC)`. */
  label: string;
  /** File name endings, lower case with the dot; the first is the usual one. */
  extensions: string[];
  /** The contract's `file_type` a job of only this format reports. */
  fileType: Exclude<JobFileType, 'archive'>;
  /** The group it is listed under. */
  group: 'document' | 'image' | 'media' | 'text';
}

/**
 * Every format the service accepts, in the order it is listed to people: the one table the
 * detector's extension check, `file_type`, the "unsupported format" message, `GET /capabilities`,
 * the console's file picker and the CLI read. Word-processing formats count as `docx`,
 * presentations as `pptx`, spreadsheets (CSV and TSV included) as `xlsx`; formats the contract
 * has no value for (HTML, plain text, EPUB, e-mail, Markdown) as `mixed`.
 */
export const ACCEPTED_FORMATS: readonly AcceptedFormat[] = [
  { kind: 'pdf', label: 'PDF', extensions: ['.pdf'], fileType: 'pdf', group: 'document' },
  { kind: 'docx', label: 'DOCX', extensions: ['.docx', '.docm', '.dotx'], fileType: 'docx', group: 'document' },
  {
    kind: 'pptx',
    label: 'PPTX',
    extensions: ['.pptx', '.pptm', '.ppsx', '.potx'],
    fileType: 'pptx',
    group: 'document',
  },
  { kind: 'xlsx', label: 'XLSX', extensions: ['.xlsx', '.xlsm', '.xltx'], fileType: 'xlsx', group: 'document' },
  { kind: 'hwp', label: 'HWP', extensions: ['.hwp'], fileType: 'hwp', group: 'document' },
  { kind: 'hwpx', label: 'HWPX', extensions: ['.hwpx'], fileType: 'hwpx', group: 'document' },
  { kind: 'odt', label: 'ODT', extensions: ['.odt'], fileType: 'docx', group: 'document' },
  { kind: 'ods', label: 'ODS', extensions: ['.ods'], fileType: 'xlsx', group: 'document' },
  { kind: 'odp', label: 'ODP', extensions: ['.odp'], fileType: 'pptx', group: 'document' },
  { kind: 'doc', label: 'DOC', extensions: ['.doc', '.dot'], fileType: 'docx', group: 'document' },
  { kind: 'xls', label: 'XLS', extensions: ['.xls', '.xlt'], fileType: 'xlsx', group: 'document' },
  { kind: 'ppt', label: 'PPT', extensions: ['.ppt', '.pps', '.pot'], fileType: 'pptx', group: 'document' },
  { kind: 'rtf', label: 'RTF', extensions: ['.rtf'], fileType: 'docx', group: 'document' },
  { kind: 'epub', label: 'EPUB', extensions: ['.epub'], fileType: 'mixed', group: 'document' },
  { kind: 'eml', label: 'e-mail (EML)', extensions: ['.eml'], fileType: 'mixed', group: 'document' },
  { kind: 'msg', label: 'Outlook e-mail (MSG)', extensions: ['.msg'], fileType: 'mixed', group: 'document' },
  { kind: 'html', label: 'HTML', extensions: ['.html', '.htm', '.xhtml'], fileType: 'mixed', group: 'text' },
  { kind: 'csv', label: 'CSV', extensions: ['.csv'], fileType: 'xlsx', group: 'text' },
  { kind: 'tsv', label: 'TSV', extensions: ['.tsv', '.tab'], fileType: 'xlsx', group: 'text' },
  { kind: 'text', label: 'plain text', extensions: ['.txt', '.text', '.log'], fileType: 'mixed', group: 'text' },
  { kind: 'markdown', label: 'Markdown', extensions: ['.md', '.markdown'], fileType: 'mixed', group: 'text' },
  {
    kind: 'image',
    label: 'images (PNG, JPEG, TIFF, WebP, BMP, GIF)',
    extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp', '.bmp', '.gif'],
    fileType: 'image',
    group: 'image',
  },
  {
    kind: 'audio',
    label: 'audio (MP3, WAV, M4A, OGG, Opus, FLAC, WebM)',
    extensions: ['.mp3', '.wav', '.m4a', '.ogg', '.oga', '.opus', '.flac', '.webm'],
    fileType: 'audio',
    group: 'media',
  },
  {
    kind: 'video',
    label: 'video (MP4, MOV, WebM, MKV, AVI)',
    extensions: ['.mp4', '.m4v', '.mov', '.webm', '.mkv', '.avi'],
    fileType: 'video',
    group: 'media',
  },
];

/** Archive endings; their members are read as files of the upload. */
export const ARCHIVE_EXTENSIONS = ['.zip', '.tar', '.tgz', '.tar.gz', '.gz'];

/** The accepted format of a kind. */
export function acceptedFormat(kind: FileKind): AcceptedFormat {
  const format = ACCEPTED_FORMATS.find((f) => f.kind === kind);
  if (!format) throw new Error(`no accepted format for kind ${kind}`);
  return format;
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
