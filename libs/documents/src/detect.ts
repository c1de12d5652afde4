import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DetectedFile, FileKind } from './kinds';
import { inspectMedia } from './media/inspect-media';
import { withZip, type ZipReader } from './zip/zip-reader';

type Expectation = FileKind | 'archive';

/** Extensions we recognise, the kinds each may hold, and for images the exact content type. */
const EXTENSIONS: Record<string, { kinds: Expectation[]; mimes?: string[] }> = {
  '.pdf': { kinds: ['pdf'] },
  '.docx': { kinds: ['docx'] },
  '.pptx': { kinds: ['pptx'] },
  '.xlsx': { kinds: ['xlsx'] },
  '.xlsm': { kinds: ['xlsx'] },
  '.hwp': { kinds: ['hwp'] },
  '.hwpx': { kinds: ['hwpx'] },
  '.png': { kinds: ['image'], mimes: ['image/png'] },
  '.jpg': { kinds: ['image'], mimes: ['image/jpeg'] },
  '.jpeg': { kinds: ['image'], mimes: ['image/jpeg'] },
  '.tif': { kinds: ['image'], mimes: ['image/tiff'] },
  '.tiff': { kinds: ['image'], mimes: ['image/tiff'] },
  '.webp': { kinds: ['image'], mimes: ['image/webp'] },
  '.bmp': { kinds: ['image'], mimes: ['image/bmp'] },
  '.gif': { kinds: ['image'], mimes: ['image/gif'] },
  '.mp3': { kinds: ['audio'] },
  '.wav': { kinds: ['audio'] },
  '.m4a': { kinds: ['audio'] },
  '.ogg': { kinds: ['audio'] },
  '.oga': { kinds: ['audio'] },
  '.opus': { kinds: ['audio'] },
  '.flac': { kinds: ['audio'] },
  '.webm': { kinds: ['audio', 'video'] },
  '.mp4': { kinds: ['video', 'audio'] },
  '.m4v': { kinds: ['video'] },
  '.mov': { kinds: ['video'] },
  '.mkv': { kinds: ['video', 'audio'] },
  '.avi': { kinds: ['video'] },
  '.zip': { kinds: ['archive'] },
  '.tar': { kinds: ['archive'] },
  '.tgz': { kinds: ['archive'] },
  '.gz': { kinds: ['archive'] },
  '.md': { kinds: ['markdown'] },
  '.markdown': { kinds: ['markdown'] },
};

const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp', 'image/gif'];
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
  'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml': 'xlsx',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml': 'xlsx',
};
const OOXML_MIMES: Record<FileKind, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as Record<FileKind, string>;

/** What file-type calls zip-based office files; which one it really is, our own check decides. */
const OOXML_EXTENSIONS = ['docx', 'docm', 'dotx', 'pptx', 'pptm', 'potx', 'ppsx', 'xlsx', 'xlsm', 'xltx'];

const LEGACY_OFFICE: Record<string, string> = {
  WordDocument: 'DOC',
  'PowerPoint Document': 'PPT',
  Workbook: 'XLS',
  Book: 'XLS',
};
const LEGACY_TARGET: Record<string, string> = { DOC: 'DOCX', PPT: 'PPTX', XLS: 'XLSX' };

type FileTypeModule = typeof import('file-type');
let fileType: FileTypeModule | undefined;

const SUPPORTED =
  'Upload PDF, DOCX, PPTX, XLSX, HWP, HWPX, images (PNG, JPEG, TIFF, WebP, BMP, GIF), audio (MP3, WAV, M4A, OGG, FLAC, WebM), ' +
  'video (MP4, MOV, WebM, MKV, AVI), archives (ZIP, TAR, TAR.GZ) or Markdown.';

/**
 * Decides what a file is from its bytes: magic numbers (`file-type`), then our own checks where
 * those are blind (office files and HWPX are zips, HWP is a compound file). A name whose
 * extension contradicts the content is refused.
 */
export async function detect(path: string, displayName: string): Promise<DetectedFile> {
  fileType ??= await import('file-type');
  const found = await fileType.fileTypeFromFile(path).catch(() => undefined);
  const extension = extname(displayName).toLowerCase();
  const detected = await classify(path, found?.mime, found?.ext, extension, displayName);
  const expected = EXTENSIONS[extension];
  if (expected) {
    const kindMatches = expected.kinds.includes(detected.kind);
    const mimeMatches = !expected.mimes || expected.mimes.includes(detected.mime);
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
): Promise<DetectedFile> {
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
  if (mime === 'application/x-cfb') return classifyCompoundFile(path, displayName, extension);
  if (mime === 'application/zip' || (ext && OOXML_EXTENSIONS.includes(ext))) {
    return classifyZip(path, displayName);
  }
  if (!mime && EXTENSIONS[extension]?.kinds.includes('markdown')) {
    if (await isUtf8Text(path)) return { kind: 'markdown', mime: 'text/markdown' };
    throw unsupported(
      `${displayName} is named ${extension} but is not UTF-8 text. Save it as UTF-8 and upload it again.`,
    );
  }
  const what = ext ? `${ext.toUpperCase()} data` : 'data of an unknown type';
  throw unsupported(`${displayName} contains ${what}, which is not supported. ${SUPPORTED}`);
}

/** OOXML by its main part's content type, HWPX by its `mimetype` entry; any other zip is an archive. */
async function classifyZip(path: string, displayName: string): Promise<DetectedFile> {
  let result: DetectedFile | undefined;
  try {
    result = await withZip(path, async (zip: ZipReader) => {
      const hwpxMime = zip.find('mimetype')
        ? (await zip.read(zip.find('mimetype')!, 1024)).toString('utf8').trim()
        : '';
      if (hwpxMime === 'application/hwp+zip') return { kind: 'hwpx', mime: hwpxMime } as const;
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

/** HWP 5 files carry a `FileHeader` stream with the HWP signature; legacy Office files their own streams. */
async function classifyCompoundFile(path: string, displayName: string, extension: string): Promise<DetectedFile> {
  const legacyByName = { '.doc': 'DOC', '.ppt': 'PPT', '.xls': 'XLS' }[extension];
  const refuseLegacy = (format: string) =>
    unsupported(
      `${displayName} is a legacy ${format} file. Save it as ${LEGACY_TARGET[format]} (File → Save As) and upload that.`,
    );
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(path, { type: 'file' });
  } catch {
    if (legacyByName) throw refuseLegacy(legacyByName);
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
  for (const [stream, format] of Object.entries(LEGACY_OFFICE)) {
    if (CFB.find(container, `/${stream}`)) throw refuseLegacy(format);
  }
  if (legacyByName) throw refuseLegacy(legacyByName);
  throw unsupported(`${displayName} is a compound document of a kind that is not supported. ${SUPPORTED}`);
}

function describe(detected: DetectedFile): string {
  if (detected.kind === 'archive') return `a ${detected.format.toUpperCase()} archive`;
  if (detected.kind === 'image') return `${detected.mime.replace('image/', '').toUpperCase()} data`;
  if (detected.kind === 'markdown') return 'text';
  return `${detected.kind.toUpperCase()} data`;
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
