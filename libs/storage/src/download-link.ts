import { assertStoragePath } from './storage.port';

/** Roots a download link may point into; `health/` holds only the store's own probes. */
const DOWNLOADABLE_ROOTS = ['inputs', 'results'];

/** The longest a download link may last: S3 presigned URLs cannot outlive seven days. */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 24 * 3600;

/** Whether a download link may point at `path`: a storage path under `inputs/` or `results/`, without control characters. */
export function isDownloadablePath(path: string): boolean {
  try {
    assertStoragePath(path);
  } catch {
    return false;
  }
  return DOWNLOADABLE_ROOTS.includes(path.split('/')[0]) && !hasControlCharacter(path);
}

/** Refuses to make a download link to anything but a file under `inputs/` or `results/`. */
export function assertDownloadablePath(path: string): string {
  if (!isDownloadablePath(path)) {
    throw new Error(`Refusing a download link outside inputs/ and results/: ${JSON.stringify(path)}`);
  }
  return path;
}

/** Whether `filename` can be a download name: 1-255 characters, none of them control characters. */
export function isDownloadName(filename: string): boolean {
  return filename.length > 0 && filename.length <= 255 && !hasControlCharacter(filename);
}

/** Refuses a download name that would break the Content-Disposition header. */
export function assertDownloadName(filename: string): string {
  if (!isDownloadName(filename)) {
    throw new Error(`Refusing download name ${JSON.stringify(filename)}: 1-255 characters without control characters`);
  }
  return filename;
}

/** The link lifetime asked for, or the configured default; refuses what no backend can honour. */
export function resolveTtlSeconds(asked: number | undefined, fallback: number): number {
  const ttl = asked ?? fallback;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_SIGNED_URL_TTL_SECONDS) {
    throw new RangeError(`A download link lasts 1 to ${MAX_SIGNED_URL_TTL_SECONDS} whole seconds, not ${ttl}`);
  }
  return ttl;
}

/** Characters that show nothing or reorder what is shown: controls, format characters (bidirectional overrides, zero-width spaces, byte order marks), line separators and Hangul fillers. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]/gu;
/** Characters that some operating system does not allow in a file name. */
const FORBIDDEN_IN_NAMES = /[/\\:*?"<>|]/g;
/** Names Windows reserves for devices, whatever their extension and spaces before it. */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])\s*(\.|$)/i;
/** A name's extension: a last dot and up to 8 ASCII letters or digits. */
const EXTENSION = /\.[A-Za-z0-9]{1,8}$/;
/**
 * The longest a download name may be, in UTF-8 bytes: Linux and macOS allow 255 bytes (a Hangul
 * syllable takes 3), Windows 255 UTF-16 units; the rest is room for a copy's ` (1)`.
 */
export const MAX_DOWNLOAD_NAME_BYTES = 200;

/**
 * A file name that saves the same on every operating system and shows what it is: invisible and
 * reordering characters removed, separators and other forbidden characters replaced, leading and
 * trailing dots and spaces trimmed, device names defused, at most `MAX_DOWNLOAD_NAME_BYTES` bytes
 * with its extension kept; never empty. Applying it twice changes nothing.
 */
export function safeDownloadName(filename: string): string {
  const cleaned = trimName(filename.normalize('NFC').replace(INVISIBLE, '').replace(FORBIDDEN_IN_NAMES, '_'));
  const named = cleaned === '' ? 'download' : RESERVED.test(cleaned) ? `_${cleaned}` : cleaned;
  if (Buffer.byteLength(named) <= MAX_DOWNLOAD_NAME_BYTES) return named;
  const extension = EXTENSION.exec(named)?.[0] ?? '';
  let budget = MAX_DOWNLOAD_NAME_BYTES - Buffer.byteLength(extension);
  const kept: string[] = [];
  for (const char of named.slice(0, named.length - extension.length)) {
    budget -= Buffer.byteLength(char);
    if (budget < 0) break;
    kept.push(char);
  }
  return `${trimName(kept.join('')) || 'download'}${extension}`;
}

/** How a job's title ends when it has several files: `a.pdf (+2 more)` (libs/jobs jobTitle). */
const MORE_FILES = /\s*\(\+(\d+) more\)$/;

/**
 * The name a job's result downloads under: the job title with its extension replaced and made safe
 * (`safeDownloadName`), e.g. `Report.pdf` → `Report.md`, `bundle.zip` → `bundle.docx`; a job of
 * several files is named by the first and how many more, `a.pdf (+2 more)` → `a-and-2-more.pptx`.
 * One rule for the API's downloads, signed links and the names the CLI saves under (it takes them
 * from the header).
 */
export function downloadName(title: string, extension: string): string {
  const more = MORE_FILES.exec(title);
  const first = more ? title.slice(0, more.index) : title;
  const base = trimName(first.replace(EXTENSION, '')) || 'result';
  return safeDownloadName(`${base}${more ? `-and-${more[1]}-more` : ''}.${extension}`);
}

function trimName(name: string): string {
  return name.replace(/^[\s.]+|[\s.]+$/g, '');
}

/**
 * `attachment` with the name made safe (`safeDownloadName`), an ASCII fallback and, for names
 * outside ASCII, the RFC 5987 `filename*` form that browsers and curl use to keep the real name.
 */
export function attachmentDisposition(name: string): string {
  const filename = safeDownloadName(name);
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const header = `attachment; filename="${ascii}"`;
  if (ascii === filename) return header;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  hwpx: 'application/hwp+zip',
};

/** Every media type `contentTypeOf` gives, without parameters: what a stored file can be served as. */
export const SERVED_MEDIA_TYPES: readonly string[] = [
  ...new Set([...Object.values(CONTENT_TYPES), 'application/octet-stream'].map((type) => type.split(';')[0])),
];

/** The media type a stored file is served with, by its extension; unknown ones are plain bytes. */
export function contentTypeOf(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

function hasControlCharacter(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text);
}
