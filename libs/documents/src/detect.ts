import { DomainError } from '@docconv/contracts';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DetectedFile, FileKind } from './kinds';

/** Extensions we recognise, and the content types each may hold. */
const EXTENSIONS: Record<string, { kind: FileKind; mimes: string[] }> = {
  '.pdf': { kind: 'pdf', mimes: ['application/pdf'] },
  '.png': { kind: 'image', mimes: ['image/png'] },
  '.jpg': { kind: 'image', mimes: ['image/jpeg'] },
  '.jpeg': { kind: 'image', mimes: ['image/jpeg'] },
  '.tif': { kind: 'image', mimes: ['image/tiff'] },
  '.tiff': { kind: 'image', mimes: ['image/tiff'] },
  '.webp': { kind: 'image', mimes: ['image/webp'] },
  '.bmp': { kind: 'image', mimes: ['image/bmp'] },
  '.gif': { kind: 'image', mimes: ['image/gif'] },
  '.md': { kind: 'markdown', mimes: ['text/markdown'] },
  '.markdown': { kind: 'markdown', mimes: ['text/markdown'] },
};

const CONTENT_KINDS: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/tiff': 'image',
  'image/webp': 'image',
  'image/bmp': 'image',
  'image/gif': 'image',
};

const LEGACY_OFFICE: Record<string, string> = { '.doc': 'DOCX', '.ppt': 'PPTX', '.xls': 'XLSX' };

type FileTypeModule = typeof import('file-type');
let fileType: FileTypeModule | undefined;

/**
 * Decides what a file is from its bytes (magic numbers, then our own checks where those are
 * blind), and refuses a name whose extension contradicts the content.
 */
export async function detect(path: string, displayName: string): Promise<DetectedFile> {
  fileType ??= await import('file-type');
  const found = await fileType.fileTypeFromFile(path);
  const extension = extname(displayName).toLowerCase();
  const expected = EXTENSIONS[extension];

  if (found?.mime === 'application/x-cfb' && LEGACY_OFFICE[extension]) {
    throw unsupported(
      `${displayName} is a legacy ${extension.slice(1).toUpperCase()} file. Save it as ${LEGACY_OFFICE[extension]} and upload that.`,
    );
  }

  const contentKind = found ? CONTENT_KINDS[found.mime] : undefined;
  if (contentKind) {
    if (expected && !expected.mimes.includes(found!.mime)) {
      throw unsupported(
        `${displayName} is named ${extension} but contains ${found!.ext.toUpperCase()} data. Rename it or upload the right file.`,
      );
    }
    return { kind: contentKind, mime: found!.mime };
  }

  if (!found && expected?.kind === 'markdown') {
    if (await isUtf8Text(path)) return { kind: 'markdown', mime: 'text/markdown' };
    throw unsupported(
      `${displayName} is named ${extension} but is not UTF-8 text. Save it as UTF-8 and upload it again.`,
    );
  }

  const what = found ? `${found.ext.toUpperCase()} data` : 'data of an unknown type';
  throw unsupported(
    `${displayName} contains ${what}, which is not supported. Upload PDF, images (PNG, JPEG, TIFF, WebP, BMP, GIF) or Markdown.`,
  );
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
