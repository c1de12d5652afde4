import { posix } from 'node:path';
import { decode, isSupported, labelToName } from 'whatwg-encoding';
import { parseXml, XmlPartError, type XmlElement } from '../docx/xml-tree';
import { decodeHtml } from '../html/extract-html';
import type { ZipEntryInfo, ZipReader } from '../zip/zip-reader';

/** The largest part read from a book (a chapter this large holds thousands of pages). */
export const MAX_EPUB_PART_BYTES = 32 * 1024 * 1024;

/** Encryption of embedded fonts only (IDPF and Adobe font obfuscation): the text stays readable. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/** Files that only DRM schemes put in a book: Adobe ADEPT's rights, Apple FairPlay's keys, a Readium LCP licence. */
const DRM_FILES = ['meta-inf/rights.xml', 'meta-inf/sinf.xml', 'meta-inf/license.lcpl'];

/** Media types of the content documents a book's chapters are written in. */
const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/x-dtbook+xml']);

/** What is read from a book: its description and its chapters in reading order. */
export interface EpubBook {
  title?: string;
  authors: string[];
  /** The publisher's description, HTML or plain text. */
  description?: string;
  /** The content documents of the spine, in order, decoded to text (XHTML). */
  chapters: string[];
}

/**
 * Raised when the package is not a readable EPUB book. `message` says why and reads as the end of
 * a sentence.
 */
export class EpubPackageError extends Error {}

/** Raised when the book's text is encrypted by a DRM scheme. */
export class EpubDrmError extends Error {}

/**
 * Reads a book's package: `META-INF/container.xml` names the package document (OPF), whose
 * manifest and spine give the chapters in reading order. The navigation document is left out
 * (its headings are the chapters' own). Books whose chapters are encrypted are refused.
 */
export async function readEpub(zip: ZipReader): Promise<EpubBook> {
  refuseDrm(zip);
  const opfPath = await packagePath(zip);
  const opfText = await readText(zip, opfPath);
  if (opfText === undefined) throw new EpubPackageError(`its package document (${opfPath}) is missing`);
  const opf = parsePart(opfText, opfPath);
  if (localName(opf.name) !== 'package') throw new EpubPackageError(`${opfPath} is not an EPUB package document`);

  const metadata = descendants(opf, 'metadata')[0];
  const text = (name: string): string[] =>
    descendants(metadata, name)
      .map((e) => textOf(e).replace(/\s+/g, ' ').trim())
      .filter((t) => t !== '');
  const encrypted = await encryptedParts(zip);
  const chapters: string[] = [];
  for (const path of chapterPaths(opf, posix.dirname(opfPath))) {
    if (encrypted.has(path.toLowerCase())) throw new EpubDrmError(path);
    const entry = findEntry(zip, path);
    if (entry) chapters.push(decodeXhtml(await zip.read(entry, MAX_EPUB_PART_BYTES)));
  }
  return { title: text('title')[0], authors: text('creator'), description: text('description')[0], chapters };
}

/** The package document's path: the first rootfile of the container, else the only `.opf` file. */
async function packagePath(zip: ZipReader): Promise<string> {
  const containerText = await readText(zip, 'META-INF/container.xml');
  if (containerText !== undefined) {
    const container = parsePart(containerText, 'META-INF/container.xml');
    const rootfiles = descendants(container, 'rootfile');
    const rootfile = rootfiles.find((r) => r.attrs['media-type'] === 'application/oebps-package+xml') ?? rootfiles[0];
    const path = rootfile?.attrs['full-path'];
    if (path) return resolvePath('', path);
  }
  const opfs = zip.entries.filter((e) => !e.isDirectory && e.name.toLowerCase().endsWith('.opf'));
  if (opfs.length === 1) return opfs[0].name;
  throw new EpubPackageError(
    containerText === undefined
      ? 'it has no META-INF/container.xml naming its package document'
      : 'its META-INF/container.xml names no package document',
  );
}

/** The content documents of the spine in order, as paths in the zip; the manifest's when the spine lists none. */
function chapterPaths(opf: XmlElement, opfDir: string): string[] {
  const manifest = new Map<string, { href: string; type: string; properties: string }>();
  for (const item of descendants(descendants(opf, 'manifest')[0], 'item')) {
    const id = item.attrs.id;
    const href = item.attrs.href;
    if (id === undefined || href === undefined) continue;
    manifest.set(id, {
      href,
      type: (item.attrs['media-type'] ?? '').toLowerCase(),
      properties: item.attrs.properties ?? '',
    });
  }
  const isChapter = (item: { href: string; type: string; properties: string }): boolean =>
    !/(?:^|\s)nav(?:\s|$)/.test(item.properties) &&
    (CONTENT_TYPES.has(item.type) || (item.type === '' && /\.x?html?$/i.test(item.href)));
  const spine = descendants(descendants(opf, 'spine')[0], 'itemref')
    .map((ref) => manifest.get(ref.attrs.idref ?? ''))
    .filter((item) => item !== undefined);
  const ordered = spine.length > 0 ? spine : [...manifest.values()];
  const paths = ordered.filter(isChapter).map((item) => resolvePath(opfDir, item.href));
  return paths.filter((path, i) => paths.indexOf(path) === i);
}

/** Refuses a book with a DRM scheme's own files in it. */
function refuseDrm(zip: ZipReader): void {
  const drm = zip.entries.find((e) => DRM_FILES.includes(e.name.toLowerCase()));
  if (drm) throw new EpubDrmError(drm.name);
}

/** Paths (lower case) of the parts `META-INF/encryption.xml` lists as encrypted other than by font obfuscation. */
async function encryptedParts(zip: ZipReader): Promise<Set<string>> {
  const out = new Set<string>();
  const xml = await readText(zip, 'META-INF/encryption.xml');
  if (xml === undefined) return out;
  const root = parsePart(xml, 'META-INF/encryption.xml');
  for (const data of descendants(root, 'EncryptedData')) {
    const algorithm = descendants(data, 'EncryptionMethod')[0]?.attrs.Algorithm ?? '';
    const uri = descendants(data, 'CipherReference')[0]?.attrs.URI;
    if (uri !== undefined && !FONT_OBFUSCATION.has(algorithm)) out.add(resolvePath('', uri).toLowerCase());
  }
  return out;
}

/**
 * A chapter's text: its byte-order mark, else the encoding its XML declaration names, else as an
 * HTML file is decoded (a `<meta>` charset, UTF-8 when valid).
 */
export function decodeXhtml(bytes: Buffer): string {
  const head = bytes.subarray(0, 256).toString('latin1');
  const label = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1];
  const name = label === undefined ? null : labelToName(label);
  if (name !== null && isSupported(name) && name !== 'x-user-defined') return decode(bytes, name);
  return decodeHtml(bytes);
}

/** A part's text, found by name as written or case-insensitively; undefined when absent. */
async function readText(zip: ZipReader, path: string): Promise<string | undefined> {
  const entry = findEntry(zip, path);
  return entry ? decodeXhtml(await zip.read(entry, MAX_EPUB_PART_BYTES)) : undefined;
}

function findEntry(zip: ZipReader, path: string): ZipEntryInfo | undefined {
  const exact = zip.entries.find((e) => !e.isDirectory && e.name === path);
  if (exact) return exact;
  const wanted = path.toLowerCase();
  return zip.entries.find((e) => !e.isDirectory && e.name.toLowerCase() === wanted);
}

/** A manifest or container reference as a path in the zip: relative to `baseDir`, percent-decoded, without fragment. */
function resolvePath(baseDir: string, href: string): string {
  let path = href.replace(/[#?].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // a literal '%' in the name: use it as written
  }
  const joined = path.startsWith('/') ? path.slice(1) : posix.join(baseDir === '.' ? '' : baseDir, path);
  return posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

/**
 * Parses a package part with the project's XML reader. A document type declaration is taken out
 * first, internal subset and all: its entities are never expanded (references to them stay as
 * written).
 */
function parsePart(xml: string, path: string): XmlElement {
  const withoutDoctype = xml.replace(/<!DOCTYPE[^[>]*(?:\[[\s\S]*?\]\s*)?>/i, '');
  try {
    return parseXml(withoutDoctype, path);
  } catch (error) {
    if (error instanceof XmlPartError) throw new EpubPackageError(error.message);
    throw error;
  }
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** The descendants of an element with a local name, in document order (an explicit stack: any depth). */
function descendants(root: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlElement[] = root ? [root] : [];
  for (let element = stack.pop(); element; element = stack.pop()) {
    if (element !== root && localName(element.name) === name) out.push(element);
    for (let i = element.children.length - 1; i >= 0; i--) {
      const node = element.children[i];
      if (typeof node !== 'string') stack.push(node);
    }
  }
  return out;
}

/** All the character data inside an element, in document order. */
function textOf(element: XmlElement): string {
  let text = '';
  const stack: (XmlElement | string)[] = [element];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node === 'string') text += node;
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return text;
}
