import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import sniffHtmlEncoding from 'html-encoding-sniffer';
import { decode, isSupported, labelToName } from 'whatwg-encoding';
import { textPages } from '../text-pages';
import type { Document } from '@docconv/model';
import { htmlDocument, htmlReadableCharacters } from './html-markdown';
import type { HtmlContent } from './main-content';

/** What the sniffer answers when the bytes declare no encoding. */
const UNDECLARED = 'undeclared';

/** How far past the first 1024 bytes a `<meta>` charset is still looked for (pages with long comments or scripts first). */
const LATE_META_BYTES = 64 * 1024;

const LATE_META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;

/**
 * An HTML file's text. The encoding is the one a browser would pick: a byte-order mark, then the
 * document's `<meta charset>` or `http-equiv` declaration (looked for a little past where the
 * WHATWG prescan stops); with no declaration, UTF-8 when the bytes are valid UTF-8, otherwise
 * windows-1252 (the WHATWG default for such pages). A declared encoding this decoder does not
 * know falls back the same way.
 */
export function decodeHtml(bytes: Buffer): string {
  const fallback = isUtf8(bytes) ? 'UTF-8' : 'windows-1252';
  let name = sniffHtmlEncoding(bytes, { defaultEncoding: UNDECLARED });
  if (name === UNDECLARED) name = lateMetaCharset(bytes) ?? fallback;
  if (!isSupported(name) || name === 'x-user-defined') name = fallback;
  return decode(bytes, name);
}

/** The encoding a `<meta>` declares beyond the prescan's first 1024 bytes, if any. */
function lateMetaCharset(bytes: Buffer): string | undefined {
  if (bytes.length <= 1024) return undefined;
  const head = bytes.subarray(0, LATE_META_BYTES).toString('latin1');
  const label = LATE_META_CHARSET.exec(head)?.[1];
  const name = label === undefined ? null : labelToName(label);
  if (name === null) return undefined;
  return name === 'UTF-16LE' || name === 'UTF-16BE' ? 'UTF-8' : name;
}

/** The document of an HTML or XHTML file (see `htmlDocument`): the article of a whole web page unless `content` is `full`. */
export async function extractHtml(path: string, displayName: string, content: HtmlContent = 'main'): Promise<Document> {
  const html = decodeHtml(await readFile(path));
  return htmlDocument(html, displayName, { xhtml: isXhtml(html, displayName), content });
}

/** Pages of an HTML or XHTML file: the readable characters of what is read (see `extractHtml`) in text pages (TEXT_PAGE_CHARACTERS). */
export async function countHtmlPages(
  path: string,
  displayName: string,
  content: HtmlContent = 'main',
): Promise<number> {
  const html = decodeHtml(await readFile(path));
  return textPages(htmlReadableCharacters(html, { xhtml: isXhtml(html, displayName), content }));
}

/** Whether a file is XHTML, whose self-closing tags close themselves: by its extension or its XML declaration. */
function isXhtml(html: string, displayName: string): boolean {
  return /\.xht(ml)?$/i.test(displayName) || /^\uFEFF?\s*<\?xml\b/.test(html);
}
