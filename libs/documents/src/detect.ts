import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { ACCEPTED_FORMATS, ARCHIVE_EXTENSIONS, acceptedFormat, acceptedFormatsSentence } from './formats';
import type { DetectedFile, FileKind } from './kinds';
import { inspectMedia } from './media/inspect-media';
import { decodeText, sniffTextSample, TEXT_SAMPLE_BYTES } from './text/decode-text';
import { readStart } from './file-start';
import { withZip, type ZipReader } from './zip/zip-reader';

type Expectation = FileKind | 'archive';

/** Each accepted ending and the kinds a file with it may hold; text endings also admit text of another kind. */
const EXTENSIONS: Record<string, Expectation[]> = Object.fromEntries([
  ...ACCEPTED_FORMATS.flatMap((format) => format.extensions.map((ext) => [ext, [format.kind]])),
  ...ARCHIVE_EXTENSIONS.map((ext) => [ext, ['archive']]),
  ['.webm', ['audio', 'video']],
  ['.mp4', ['video', 'audio']],
  ['.mkv', ['video', 'audio']],
  // A page saved as text, or a message saved under a text name, is still that.
  ['.txt', ['text', 'html', 'eml']],
  ['.xml', ['text', 'html']],
  ['.json', ['text']],
] as [string, Expectation[]][]);

/** Image endings and the content type each must hold. */
const IMAGE_MIMES_BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.gif': 'image/gif',
};

const IMAGE_MIMES = Object.values(IMAGE_MIMES_BY_EXTENSION);
const AUDIO_MIMES = [
  'audio/mpeg',
  'audio/wav',
  'audio/x-m4a',
  'audio/mp4',
  'audio/ogg',
  'audio/opus',
  'audio/flac',
  'audio/x-flac',
];
/** Containers that may hold only sound: what they are is decided by their tracks. */
const AV_MIMES = ['video/webm', 'video/mp4', 'video/matroska', 'video/x-matroska'];
const VIDEO_MIMES = ['video/quicktime', 'video/vnd.avi', 'video/x-msvideo', 'video/x-m4v'];

const OOXML_MAIN: Record<string, FileKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml': 'docx',
  'application/vnd.ms-word.document.macroEnabled.main+xml': 'docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.template.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml': 'xlsx',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml': 'xlsx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml': 'xlsx',
};
const OOXML_MIMES: Record<FileKind, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as Record<FileKind, string>;

/** A zip's `mimetype` entry (first in OpenDocument, EPUB and HWPX packages) and what it makes the file. */
const PACKAGE_MIMETYPES: Record<string, FileKind> = {
  'application/hwp+zip': 'hwpx',
  'application/epub+zip': 'epub',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};

/** What file-type calls zip-based office files; which one it really is, our own check decides. */
const ZIP_BASED = [
  'docx',
  'docm',
  'dotx',
  'pptx',
  'pptm',
  'potx',
  'ppsx',
  'xlsx',
  'xlsm',
  'xltx',
  'epub',
  'odt',
  'ods',
  'odp',
];

/** The streams of a legacy Office compound file and what each makes it. */
const LEGACY_OFFICE: Record<string, { kind: FileKind; mime: string }> = {
  WordDocument: { kind: 'doc', mime: 'application/msword' },
  'PowerPoint Document': { kind: 'ppt', mime: 'application/vnd.ms-powerpoint' },
  Workbook: { kind: 'xls', mime: 'application/vnd.ms-excel' },
  Book: { kind: 'xls', mime: 'application/vnd.ms-excel' },
};

type FileTypeModule = typeof import('file-type');
let fileType: FileTypeModule | undefined;

/** What detection needs to know of the deployment. */
export interface DetectOptions {
  /** Audio and video are accepted (a worker transcribes); the refusal lists them only then. */
  media: boolean;
}

/**
 * Decides what a file is from its bytes: magic numbers (`file-type`), then our own checks where
 * those are blind (office, OpenDocument, EPUB and HWPX files are zips; HWP, legacy Office and
 * Outlook messages are compound files; HTML, e-mail, CSV and plain text are text). A name whose
 * extension contradicts the content is refused; between kinds of text, the extension decides
 * where the content does not (a `.csv` is a table, a `.txt` is text).
 */
export async function detect(path: string, displayName: string, options: DetectOptions): Promise<DetectedFile> {
  fileType ??= await import('file-type');
  const found = await fileType.fileTypeFromFile(path).catch(() => undefined);
  const extension = extname(displayName).toLowerCase();
  const detected = await classify(path, found?.mime, found?.ext, extension, displayName, options);
  const expected = EXTENSIONS[extension];
  if (expected) {
    const imageMime = IMAGE_MIMES_BY_EXTENSION[extension];
    const kindMatches = expected.includes(detected.kind);
    const mimeMatches = !imageMime || imageMime === detected.mime;
    if (!kindMatches || !mimeMatches) {
      throw unsupported(
        `${displayName} is named ${extension} but contains ${describe(detected)}. Rename it or upload the right file.`,
      );
    }
  }
  return detected;
}

async function classify(
  path: string,
  mime: string | undefined,
  ext: string | undefined,
  extension: string,
  displayName: string,
  options: DetectOptions,
): Promise<DetectedFile> {
  // Text that opens with a byte order mark is text: UTF-16's FF FE is also the start of an MP3 frame.
  if (await startsWithTextBom(path)) {
    const text = await classifyText(path, extension, displayName);
    if (text) return text;
  }
  if (mime === 'application/pdf') return { kind: 'pdf', mime };
  if (mime && IMAGE_MIMES.includes(mime)) return { kind: 'image', mime };
  if (mime && AUDIO_MIMES.includes(mime)) return { kind: 'audio', mime };
  if (mime && VIDEO_MIMES.includes(mime)) return { kind: 'video', mime };
  if (mime && AV_MIMES.includes(mime)) {
    const { hasVideo } = await inspectMedia(path, displayName);
    return { kind: hasVideo ? 'video' : 'audio', mime };
  }
  if (mime === 'application/x-tar') return { kind: 'archive', mime, format: 'tar' };
  if (mime === 'application/gzip') return { kind: 'archive', mime, format: 'tar.gz' };
  if (mime === 'application/rtf') return { kind: 'rtf', mime };
  if (mime === 'application/x-cfb') return classifyCompoundFile(path, displayName, options);
  if (mime === 'application/zip' || (ext && ZIP_BASED.includes(ext))) return classifyZip(path, displayName);
  if (!mime || mime === 'application/xml') {
    const text = await classifyText(path, extension, displayName);
    if (text) return text;
  }
  const what = ext ? `${ext.toUpperCase()} data` : 'data of an unknown type';
  throw unsupported(
    `${displayName} contains ${what}, which is not supported. ${acceptedFormatsSentence(options.media)}`,
  );
}

/**
 * OOXML by its main part's content type; OpenDocument, EPUB and HWPX by their `mimetype`
 * entry; any other zip is an archive.
 */
async function classifyZip(path: string, displayName: string): Promise<DetectedFile> {
  let result: DetectedFile | undefined;
  try {
    result = await withZip(path, async (zip: ZipReader) => {
      const mimetypeEntry = zip.find('mimetype');
      const packageMime = mimetypeEntry ? (await zip.read(mimetypeEntry, 1024)).toString('utf8').trim() : '';
      const packaged = PACKAGE_MIMETYPES[packageMime];
      if (packaged) return { kind: packaged, mime: packageMime } as const;
      const types = await zip.readText('[Content_Types].xml', 1024 * 1024);
      if (types) {
        for (const match of types.matchAll(/ContentType="([^"]+)"/g)) {
          const kind = OOXML_MAIN[match[1]];
          if (kind) return { kind, mime: OOXML_MIMES[kind] };
        }
      }
      return undefined;
    });
  } catch {
    throw unsupported(`${displayName} is a damaged zip file. Check that the file is complete and upload it again.`);
  }
  return result ?? { kind: 'archive', mime: 'application/zip', format: 'zip' };
}

/**
 * HWP 5 files carry a `FileHeader` stream with the HWP signature; legacy Office files and
 * Outlook messages their own streams.
 */
async function classifyCompoundFile(path: string, displayName: string, options: DetectOptions): Promise<DetectedFile> {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(path, { type: 'file' });
  } catch {
    throw unsupported(`${displayName} is a damaged compound document. Check that the file is complete.`);
  }
  const header = CFB.find(container, '/FileHeader');
  if (
    header &&
    Buffer.from(header.content as Uint8Array)
      .subarray(0, 17)
      .toString('latin1') === 'HWP Document File'
  ) {
    return { kind: 'hwp', mime: 'application/x-hwp' };
  }
  for (const [stream, detected] of Object.entries(LEGACY_OFFICE)) {
    if (CFB.find(container, `/${stream}`)) return detected;
  }
  if (CFB.find(container, '/__properties_version1.0')) return { kind: 'msg', mime: 'application/vnd.ms-outlook' };
  if (CFB.find(container, '/EncryptedPackage')) {
    throw unsupported(`${displayName} is password-protected. Remove the password and upload it again.`);
  }
  throw unsupported(
    `${displayName} is a compound document of a kind that is not supported. ${acceptedFormatsSentence(options.media)}`,
  );
}

/**
 * Text, and which kind: HTML and e-mail by their content (or their name), CSV and TSV by their
 * name, Markdown by its name (and only as UTF-8), anything else plain text. Undefined when the
 * bytes are not text.
 */
async function classifyText(path: string, extension: string, displayName: string): Promise<DetectedFile | undefined> {
  const sample = await readStart(path, TEXT_SAMPLE_BYTES);
  if (!sniffTextSample(sample)) return undefined;
  const kinds = EXTENSIONS[extension] ?? [];
  if (kinds.includes('markdown')) {
    if (await isUtf8Text(path)) return { kind: 'markdown', mime: 'text/markdown' };
    throw unsupported(
      `${displayName} is named ${extension} but is not UTF-8 text. Save it as UTF-8 and upload it again.`,
    );
  }
  const start = (decodeText(sample)?.text ?? '').slice(0, 4096);
  if (kinds.includes('csv')) return { kind: 'csv', mime: 'text/csv' };
  if (kinds.includes('tsv')) return { kind: 'tsv', mime: 'text/tab-separated-values' };
  if (looksLikeHtml(start) || (kinds.includes('html') && !kinds.includes('text'))) {
    return { kind: 'html', mime: 'text/html' };
  }
  if (looksLikeEmail(start) || (kinds.includes('eml') && !kinds.includes('text')))
    return { kind: 'eml', mime: 'message/rfc822' };
  return { kind: 'text', mime: 'text/plain' };
}

/** UTF-8, UTF-16 and UTF-32 byte order marks. */
const TEXT_BOMS = [
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
  [0x00, 0x00, 0xfe, 0xff],
];

async function startsWithTextBom(path: string): Promise<boolean> {
  const start = await readStart(path, 4);
  return TEXT_BOMS.some((bom) => bom.every((byte, i) => start[i] === byte));
}

/** A document that opens like a web page: a doctype, or an `html`, `head` or `body` element. */
function looksLikeHtml(start: string): boolean {
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)\b/i.test(start);
}

/** A message that opens with Internet header fields, including at least two that every mail has. */
function looksLikeEmail(start: string): boolean {
  const end = start.search(/\r?\n\r?\n/);
  if (end <= 0) return false;
  const lines = start.slice(0, end).split(/\r?\n/);
  if (!lines.every((line) => /^[\x21-\x39\x3b-\x7e]+:/.test(line) || /^[ \t]/.test(line))) return false;
  const names = new Set(lines.map((line) => line.split(':')[0].toLowerCase()));
  const typical = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'received', 'return-path'];
  return typical.filter((name) => names.has(name)).length >= 2;
}

function describe(detected: DetectedFile): string {
  if (detected.kind === 'archive') return `a ${detected.format.toUpperCase()} archive`;
  if (detected.kind === 'image') return `${detected.mime.replace('image/', '').toUpperCase()} data`;
  if (detected.kind === 'markdown' || detected.kind === 'text') return 'text';
  return `${acceptedFormat(detected.kind).label} data`;
}

function unsupported(detail: string): DomainError {
  return new DomainError('unsupported_format', detail);
}

/** Valid UTF-8 with no NUL bytes, read in chunks so a large file never sits in memory. */
async function isUtf8Text(path: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const handle = await open(path);
  try {
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (chunk.includes(0)) return false;
      decoder.decode(chunk, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
