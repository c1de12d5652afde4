import { DomainError } from '@docconv/contracts';
import { posix } from 'node:path';
import type { CommentBlock, Provenance } from '@docconv/model';
import { scanXml, XmlPartError } from '../xml/xml-scan';
import { DecompressionBudget, type DecompressionLimits } from '../decompression';
import { withZip, type ZipReader } from '../zip/zip-reader';

/** Reading OOXML packages (PowerPoint and Excel): parts, relationships, XML trees. */

/** Largest part read from a package; the zip reader refuses to inflate more. */
export const MAX_PART_BYTES = 64 * 1024 * 1024;

/** A problem with the package's content, worded for the person who uploaded it. */
export class OfficeReadError extends Error {}

/**
 * A PowerPoint or Excel package read by `read` within the decompression limits. A file that is
 * not a readable package is refused with a message that says what is wrong and how to fix it.
 */
export async function readOfficePackage<T>(
  path: string,
  displayName: string,
  limits: DecompressionLimits,
  app: { name: 'PowerPoint' | 'Excel'; extension: string },
  read: (zip: ZipReader) => Promise<T>,
): Promise<T> {
  try {
    return await withZip(path, read, new DecompressionBudget(displayName, limits));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const reason = error instanceof OfficeReadError ? error.message : 'the file is damaged or is not an Office file';
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as ${app.name === 'Excel' ? 'an' : 'a'} ${app.name} file: ${reason}. ` +
        `Check that it opens in ${app.name}, save it again as .${app.extension} and upload it again.`,
      { cause: error },
    );
  }
}

/** An XML element (or, with name `#text`, character data), named without its namespace prefix. */
export interface XmlNode {
  name: string;
  /** Attributes under their qualified names (`r:id`), entities decoded. */
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** What a scan of a part reports (`scanPart`): elements by local name, attributes under their qualified names. */
export interface PartScanHandler {
  open(name: string, attrs: Record<string, string>, empty: boolean): void;
  close(name: string): void;
  /** Character data, references decoded. */
  text(text: string): void;
}

/**
 * Scans one part with the XML reader of the formats (`scanXml`), elements named without their
 * prefix; a part that is not well-formed XML, or declares a document type (which Office never
 * writes), fails with an OfficeReadError.
 */
export function scanPart(xml: string, part: string, handler: PartScanHandler): void {
  try {
    scanXml(xml, part, {
      open: (name, attributes, empty) => handler.open(localName(name), attributes, empty),
      close: (name) => handler.close(localName(name)),
      text: (text) => handler.text(text),
    });
  } catch (error) {
    throw error instanceof XmlPartError ? new OfficeReadError(error.message, { cause: error }) : error;
  }
}

/** Parses one part into a tree under a `#document` node; adjacent character data is one `#text` node. */
export function parseXml(xml: string, part: string): XmlNode {
  const document: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [document];
  scanPart(xml, part, {
    open(name, attrs) {
      const node: XmlNode = { name, attrs, children: [], text: '' };
      stack[stack.length - 1].children.push(node);
      stack.push(node);
    },
    close() {
      stack.pop();
    },
    text(text) {
      const siblings = stack[stack.length - 1].children;
      const last = siblings[siblings.length - 1];
      if (last?.name === '#text') last.text += text;
      else siblings.push({ name: '#text', attrs: {}, children: [], text });
    },
  });
  return document;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

export function childrenNamed(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Follows a chain of child names. */
export function pathOf(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  let at = node;
  for (const name of names) at = child(at, name);
  return at;
}

/** Every descendant with that name, in document order. */
export function descendants(node: XmlNode | undefined, name: string): XmlNode[] {
  const found: XmlNode[] = [];
  const visit = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.name === name) found.push(c);
      visit(c);
    }
  };
  if (node) visit(node);
  return found;
}

/** The character data of a node and its descendants. */
export function textContent(node: XmlNode | undefined): string {
  if (!node) return '';
  if (node.name === '#text') return node.text;
  return node.children.map(textContent).join('');
}

/** The text of the `t` elements below a node (DrawingML and SpreadsheetML runs), skipping phonetic guides. */
export function runText(node: XmlNode | undefined): string {
  if (!node) return '';
  let text = '';
  for (const c of node.children) {
    if (c.name === 't') text += textContent(c);
    else if (c.name !== 'rPh' && c.name !== '#text') text += runText(c);
  }
  return text;
}

/** A namespaced attribute by its local name (`r:id`, `r:embed`, whatever the prefix). */
export function nsAttr(node: XmlNode | undefined, local: string): string | undefined {
  if (!node) return undefined;
  for (const [key, value] of Object.entries(node.attrs)) {
    const colon = key.indexOf(':');
    if (colon > 0 && key.slice(colon + 1) === local && key.slice(0, colon) !== 'xmlns') return value;
  }
  return undefined;
}

/** Reads a part by name (falling back to a case-insensitive match, as Office does), without a byte order mark. */
export async function readPart(zip: ZipReader, name: string): Promise<string | undefined> {
  const entry = zip.find(name) ?? zip.entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
  if (!entry) return undefined;
  const bytes = await zip.read(entry, MAX_PART_BYTES);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readXmlPart(zip: ZipReader, name: string): Promise<XmlNode | undefined> {
  const xml = await readPart(zip, name);
  return xml === undefined ? undefined : parseXml(xml, name);
}

export interface Relationship {
  /** The last segment of the relationship type URI: `slide`, `notesSlide`, `chart`, `hyperlink`… */
  type: string;
  /** A part name inside the package, or the URL itself when `external`. */
  target: string;
  external: boolean;
}

/** The relationships of a part, targets resolved to part names. */
export async function readRels(zip: ZipReader, part: string): Promise<Map<string, Relationship>> {
  const dir = posix.dirname(part);
  const rels = new Map<string, Relationship>();
  const root = await readXmlPart(zip, posix.join(dir, '_rels', `${posix.basename(part)}.rels`));
  for (const rel of descendants(root, 'Relationship')) {
    const id = rel.attrs.Id;
    const target = rel.attrs.Target ?? '';
    if (!id) continue;
    const external = rel.attrs.TargetMode === 'External';
    const type = (rel.attrs.Type ?? '').slice((rel.attrs.Type ?? '').lastIndexOf('/') + 1);
    rels.set(id, { type, target: external ? target : resolvePart(dir, target), external });
  }
  return rels;
}

/**
 * The part a relationship's target names, from the folder `dir` of the part that holds it: its
 * %-escapes decoded (a literal '%' kept as written), a leading '/' from the package's root, and
 * never above the root.
 */
export function resolvePart(dir: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // a literal '%' in the name: use it as written
  }
  const joined = decoded.startsWith('/') ? decoded.slice(1) : posix.join(dir, decoded);
  return posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

export function relsOfType(rels: Map<string, Relationship>, type: string): Relationship[] {
  return [...rels.values()].filter((r) => r.type === type);
}

/**
 * A picture that is not taken out, as a comment naming it (`image: its description`, its
 * whitespace collapsed), so that the description stays out of the text a reader sees.
 */
export function pictureComment(description: string | undefined, from: Provenance): CommentBlock {
  const descr = description?.replace(/\s+/g, ' ').trim();
  return { type: 'comment', text: descr ? `image: ${descr}` : 'image', from };
}

// ---- presentation ------------------------------------------------------------------------------
