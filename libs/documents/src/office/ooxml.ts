import { DomainError } from '@docconv/contracts';
import { posix } from 'node:path';
import { emphasisMarkdown } from '@docconv/model';
import { escapeInlineSyntax, escapeLineStart, escapeText } from '@docconv/model';
import { tableMarkdown } from '@docconv/model';
import { scanXml, XmlPartError } from '../xml/xml-scan';
import type { ZipReader } from '../zip/zip-reader';

/** Reading OOXML packages (PowerPoint and Excel): parts, relationships, XML trees, charts as Markdown. */

/** Largest part read from a package; the zip reader refuses to inflate more. */
export const MAX_PART_BYTES = 64 * 1024 * 1024;

/** A problem with the package's content, worded for the person who uploaded it. */
export class OfficeReadError extends Error {}

/** The DomainError for a file that could not be read; `advice` names what to do, without the final upload step. */
export function unreadable(error: unknown, displayName: string, kind: string, advice: string): DomainError {
  if (error instanceof DomainError) return error;
  const reason = error instanceof OfficeReadError ? error.message : 'the file is damaged or is not an Office file';
  return new DomainError(
    'file_processing_failed',
    `${displayName} could not be read as ${kind === 'Excel' ? 'an' : 'a'} ${kind} file: ${reason}. ${advice} and upload it again.`,
    { cause: error },
  );
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

function resolvePart(dir: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // keep the target as written
  }
  const joined = decoded.startsWith('/') ? decoded.slice(1) : posix.join(dir, decoded);
  return posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

export function relsOfType(rels: Map<string, Relationship>, type: string): Relationship[] {
  return [...rels.values()].filter((r) => r.type === type);
}

// ---- charts (shared with the XLSX extractor) ----------------------------------------------------

const CHART_KINDS: Record<string, string> = {
  area: 'Area',
  bar: 'Bar',
  bubble: 'Bubble',
  doughnut: 'Doughnut',
  line: 'Line',
  ofPie: 'Pie',
  pie: 'Pie',
  radar: 'Radar',
  scatter: 'Scatter',
  stock: 'Stock',
  surface: 'Surface',
};

/** A chart part as its title, its kind and a table of its cached data (categories down, series across). */
export function chartMarkdown(chart: XmlNode): string {
  const space = child(chart, 'chartSpace');
  const plot = pathOf(space, 'chart', 'plotArea');
  const title = chartText(pathOf(space, 'chart', 'title', 'tx'));
  const kinds = new Set<string>();
  const series: { name: string; categories: string[]; values: string[] }[] = [];
  for (const group of plot?.children ?? []) {
    const kind = /^(\w+?)(3D)?Chart$/.exec(group.name)?.[1];
    if (!kind) continue;
    kinds.add(CHART_KINDS[kind] ?? 'Other');
    for (const ser of childrenNamed(group, 'ser')) {
      series.push({
        name: chartText(child(ser, 'tx')),
        categories: chartPoints(child(ser, 'cat') ?? child(ser, 'xVal')),
        values: chartPoints(child(ser, 'val') ?? child(ser, 'yVal')),
      });
    }
  }
  const kind = kinds.size === 1 ? [...kinds][0] : kinds.size > 1 ? 'Combined' : 'Other';
  const parts = [
    title
      ? escapeLineStart(
          `${emphasisMarkdown([{ kind: 'text', text: escapeInlineSyntax(title), bold: true }])} (${kind.toLowerCase()} chart)`,
        )
      : emphasisMarkdown([{ kind: 'text', text: `${kind} chart`, italic: true }]),
  ];
  const length = Math.max(0, ...series.map((s) => Math.max(s.categories.length, s.values.length)));
  if (series.length > 0 && length > 0) {
    const categories = series.find((s) => s.categories.length > 0)?.categories ?? [];
    const rows = [['', ...series.map((s, i) => escapeText(s.name || `Series ${i + 1}`))]];
    for (let i = 0; i < length; i++)
      rows.push([escapeText(categories[i] ?? ''), ...series.map((s) => s.values[i] ?? '')]);
    parts.push(tableMarkdown(rows.map((row) => row.map((text) => ({ text, rowspan: 1, colspan: 1 })))));
  }
  return parts.join('\n\n');
}

/** Rich text, or the cached value of a cell reference, of a chart title or series name. */
function chartText(tx: XmlNode | undefined): string {
  if (!tx) return '';
  const rich = child(tx, 'rich');
  if (rich)
    return childrenNamed(rich, 'p')
      .map((p) => runText(p).trim())
      .filter(Boolean)
      .join(' ');
  const literal = child(tx, 'v');
  if (literal) return textContent(literal).trim();
  return chartPoints(tx).join(' ').trim();
}

/** The cached points of a data reference or literal, by index. */
function chartPoints(node: XmlNode | undefined): string[] {
  if (!node) return [];
  const cache =
    descendants(node, 'strCache')[0] ??
    descendants(node, 'numCache')[0] ??
    descendants(node, 'strLit')[0] ??
    descendants(node, 'numLit')[0] ??
    descendants(node, 'lvl')[0];
  if (!cache) return [];
  const points: string[] = [];
  const count = Number(child(cache, 'ptCount')?.attrs.val ?? 0);
  for (const pt of childrenNamed(cache, 'pt')) {
    const index = Number(pt.attrs.idx ?? points.length);
    if (Number.isInteger(index) && index >= 0 && index < 1_000_000)
      points[index] = tidyNumber(textContent(child(pt, 'v')));
  }
  for (let i = 0; i < Math.min(count, 1_000_000); i++) points[i] ??= '';
  return Array.from(points, (p) => p ?? '');
}

/** Drops binary floating point noise (0.30000000000000004 → 0.3) from a cached number. */
function tidyNumber(value: string): string {
  if (!/^-?\d+\.\d{12,}$/.test(value.trim())) return value.trim();
  return String(Number(Number(value).toPrecision(15)));
}

// ---- presentation ------------------------------------------------------------------------------
