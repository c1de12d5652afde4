import { DomainError } from '@docconv/contracts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { escapeEmphasis } from '../markdown/emphasis';
import { escapeHeadingText, escapeInlineSyntax, escapeLineStart } from '../markdown/escape';
import { gridRows, tableMarkdown, withoutLines, type PlacedCell, type TableCell } from '../markdown/tables';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { withZip } from '../zip/zip-reader';
import { readHwpxSections } from './hwpx-file';

/** A node of fast-xml-parser's ordered tree: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

type Block = { type: 'text'; text: string } | { type: 'table'; rows: TableCell[][] } | { type: 'rule' };

type ParagraphRole =
  { kind: 'body' } | { kind: 'heading'; level: number } | { kind: 'bullet'; char: string } | { kind: 'number' };

/** Where the inline content of a paragraph goes: the page itself or a table cell. */
interface Sink {
  text(value: string): void;
  table(table: XmlNode): void;
  /** Paragraphs of a text box or caption anchored in the paragraph. */
  paragraphs(paragraphs: XmlNode[]): void;
}

/**
 * Stands on both sides of a footnote's number in collected text until the text is escaped: a Unicode
 * noncharacter, which is kept for a program's own use and never found in a document's text.
 */
const NOTE_MARK = '\uFDD0';

const MAX_HEADER_BYTES = 32 * 1024 * 1024;
const MAX_HEADING_CHARS = 120;
const MAX_TABLE_COLUMNS = 1000;
const ADVICE = 'Check that it opens in Hangul, or save it again as HWPX or HWP and upload that.';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
});

/**
 * Markdown from an HWPX (OWPML) document: paragraphs in document order, outline and title
 * paragraphs as headings, bullets and numbered paragraphs as list items, tables as GFM (or as
 * HTML with row and column spans when cells are merged), footnotes and endnotes as GFM footnotes.
 * Pictures, headers, footers and page numbers are left out.
 */
export async function extractHwpx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  let sections: string[];
  try {
    sections = await readHwpxSections(path, displayName, limits);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
    return refuse(displayName, 'it is not a readable HWPX package');
  }
  const book = await readStyleBook(path, new DecompressionBudget(displayName, limits));
  if (book.encrypted)
    return refuse(displayName, 'it is password-protected', 'Save an unprotected copy in Hangul and upload that.');

  const converter = new HwpxConverter(book);
  const parts: string[] = [];
  for (const [index, xml] of sections.entries()) {
    let roots: XmlNode[];
    try {
      roots = parseSection(xml);
    } catch (error) {
      return refuse(displayName, `section ${index + 1} ${error instanceof Error ? error.message : 'cannot be parsed'}`);
    }
    let markdown: string;
    try {
      markdown = converter.section(roots);
    } catch {
      return refuse(displayName, `section ${index + 1} could not be converted`);
    }
    if (markdown !== '') parts.push(markdown);
  }
  const body = [parts.join('\n\n---\n\n'), converter.notes.join('\n')].filter((s) => s !== '').join('\n\n');
  const text = body.replace(/\n{3,}/g, '\n\n').trim();
  return text === '' ? '' : `${text}\n`;
}

function parseSection(xml: string): XmlNode[] {
  const source = xml.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(source);
  if (valid !== true) throw new Error(`is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const roots = (parser.parse(source) as XmlNode[]).filter((n) => localName(tagOf(n)) === 'sec');
  if (roots.length === 0) throw new Error('has no section element');
  return roots;
}

function refuse(displayName: string, reason: string, advice = ADVICE): never {
  throw new DomainError(
    'file_processing_failed',
    `${displayName} could not be read as an HWPX document: ${reason}. ${advice}`,
  );
}

// ---- styles (Contents/header.xml) ---------------------------------------------------------

interface StyleBook {
  encrypted: boolean;
  /** Paragraph shape id → its heading kind (OUTLINE, BULLET, NUMBER, NONE), level and bullet id. */
  paraShapes: Map<string, { type: string; level: number; ref: string }>;
  /** Style id → its Korean and English names. */
  styles: Map<string, string[]>;
  /** Bullet id → the character drawn. */
  bullets: Map<string, string>;
}

async function readStyleBook(path: string, budget: DecompressionBudget): Promise<StyleBook> {
  const book: StyleBook = { encrypted: false, paraShapes: new Map(), styles: new Map(), bullets: new Map() };
  let header: string | undefined;
  try {
    await withZip(
      path,
      async (zip) => {
        header = await zip.readText('Contents/header.xml', MAX_HEADER_BYTES);
        const manifest = await zip.readText('META-INF/manifest.xml', MAX_HEADER_BYTES);
        book.encrypted = manifest !== undefined && /encryption-data/i.test(manifest);
      },
      budget,
    );
  } catch {
    return book; // the document reads without styles: no headings or list items
  }
  if (header === undefined || XMLValidator.validate(header.replace(/^\uFEFF/, '')) !== true) return book;
  walk(parser.parse(header.replace(/^\uFEFF/, '')) as XmlNode[], (node) => {
    switch (localName(tagOf(node))) {
      case 'paraPr': {
        const heading = kids(node).find((k) => localName(tagOf(k)) === 'heading');
        const id = attr(node, 'id');
        if (heading && id !== undefined) {
          book.paraShapes.set(id, {
            type: attr(heading, 'type') ?? 'NONE',
            level: Number(attr(heading, 'level') ?? 0) || 0,
            ref: attr(heading, 'idRef') ?? '0',
          });
        }
        return false;
      }
      case 'style': {
        const id = attr(node, 'id');
        if (id !== undefined)
          book.styles.set(id, [attr(node, 'name') ?? '', attr(node, 'engName') ?? ''].map(decodeEntities));
        return false;
      }
      case 'bullet': {
        const id = attr(node, 'id');
        if (id !== undefined) book.bullets.set(id, decodeEntities(attr(node, 'char') ?? ''));
        return false;
      }
      default:
        return true;
    }
  });
  return book;
}

const OUTLINE_STYLE = /^(?:개요|outline)\s*(\d+)$/i;
const HEADING_STYLE = /^(?:제목|heading)\s*(\d+)$/i;
const TITLE_STYLE = /^(?:제목|title|대제목)$/i;

function roleOf(book: StyleBook, paragraph: XmlNode): ParagraphRole {
  const shape = book.paraShapes.get(attr(paragraph, 'paraPrIDRef') ?? '');
  switch (shape?.type) {
    case 'OUTLINE':
      return { kind: 'heading', level: Math.min(6, shape.level + 1) };
    case 'BULLET':
      return { kind: 'bullet', char: book.bullets.get(shape.ref) ?? '' };
    case 'NUMBER':
      return { kind: 'number' };
    default:
      break;
  }
  for (const name of book.styles.get(attr(paragraph, 'styleIDRef') ?? '') ?? []) {
    const numbered = OUTLINE_STYLE.exec(name.trim()) ?? HEADING_STYLE.exec(name.trim());
    if (numbered) return { kind: 'heading', level: Math.min(6, Math.max(1, Number(numbered[1]))) };
    if (TITLE_STYLE.test(name.trim())) return { kind: 'heading', level: 1 };
  }
  return { kind: 'body' };
}

// ---- sections ----------------------------------------------------------------------------

class HwpxConverter {
  /** GFM footnote definitions, in the order their markers appear. */
  readonly notes: string[] = [];

  constructor(private readonly book: StyleBook) {}

  section(roots: XmlNode[]): string {
    const blocks: Block[] = [];
    for (const root of roots) {
      for (const child of kids(root)) {
        if (localName(tagOf(child)) !== 'p') continue;
        if (attr(child, 'pageBreak') === '1' && blocks.length > 0) blocks.push({ type: 'rule' });
        this.paragraph(child, blocks);
      }
    }
    return renderBlocks(blocks);
  }

  /** A paragraph on the page: its text, with the tables it holds as blocks of their own in order. */
  private paragraph(paragraph: XmlNode, blocks: Block[]): void {
    const role = roleOf(this.book, paragraph);
    const anchored: Block[] = [];
    let buffer = '';
    let first = true;
    const flush = (): void => {
      const text = pageText(buffer, first ? role : { kind: 'body' });
      if (text !== '') {
        blocks.push({ type: 'text', text });
        first = false;
      }
      buffer = '';
    };
    this.inline(paragraph, {
      text: (value) => {
        buffer += value;
      },
      table: (table) => {
        flush();
        this.table(table, blocks);
      },
      paragraphs: (paragraphs) => {
        for (const p of paragraphs) this.paragraph(p, anchored);
      },
    });
    flush();
    blocks.push(...anchored);
  }

  /** The text of paragraphs inside a table cell, note or nested object, lines joined by newlines. */
  private plain(paragraphs: XmlNode[]): string {
    const lines: string[] = [];
    for (const paragraph of paragraphs) {
      let buffer = '';
      const role = roleOf(this.book, paragraph);
      this.inline(paragraph, {
        text: (value) => {
          buffer += value;
        },
        table: (table) => {
          buffer += `\n${this.flatTable(table)}\n`;
        },
        paragraphs: (nested) => {
          buffer += `\n${this.plain(nested)}\n`;
        },
      });
      const text = buffer
        .split('\n')
        .map(collapseSpaces)
        .filter((line) => line !== '')
        .join('\n');
      if (text === '') continue;
      const bullet = role.kind === 'bullet' ? bulletChar(role.char) : '';
      lines.push(bullet ? `${bullet} ${text}` : text);
    }
    return lines.join('\n');
  }

  private inline(paragraph: XmlNode, sink: Sink): void {
    for (const child of kids(paragraph)) {
      if (localName(tagOf(child)) === 'run') for (const item of kids(child)) this.runItem(item, sink);
      else this.runItem(child, sink);
    }
  }

  private runItem(item: XmlNode, sink: Sink): void {
    const tag = localName(tagOf(item));
    switch (tag) {
      case '':
        return;
      case 't':
        for (const piece of kids(item)) {
          if (typeof piece['#text'] === 'string') sink.text(decodeEntities(piece['#text'].replace(/[\r\n]+/g, ' ')));
          else this.runItem(piece, sink);
        }
        return;
      case 'tab':
      case 'nbSpace':
      case 'fwSpace':
        sink.text(' ');
        return;
      case 'lineBreak':
        sink.text('\n');
        return;
      case 'hyphen':
        sink.text('-');
        return;
      case 'tbl':
        sink.table(item);
        return;
      case 'ctrl':
        for (const control of kids(item)) this.control(control, sink);
        return;
      case 'switch': {
        const options = kids(item);
        const chosen = options.find((o) => localName(tagOf(o)) === 'default') ?? options[0];
        if (chosen) for (const inner of kids(chosen)) this.runItem(inner, sink);
        return;
      }
      case 'compose':
        sink.text(decodeEntities(attr(item, 'composeText') ?? ''));
        return;
      case 'textart':
        sink.text(decodeEntities(attr(item, 'text') ?? ''));
        return;
      case 'dutmal': {
        const main = kids(item).find((k) => localName(tagOf(k)) === 'mainText');
        if (main) sink.text(textOf(main));
        return;
      }
      case 'equation': {
        const script = kids(item).find((k) => localName(tagOf(k)) === 'script');
        const source = script ? collapseSpaces(textOf(script)) : '';
        if (source !== '') sink.text(` ${source} `);
        return;
      }
      case 'secPr':
      case 'linesegarray':
      case 'shapeComment':
      case 'markpenBegin':
      case 'markpenEnd':
      case 'titleMark':
      case 'insertBegin':
      case 'insertEnd':
      case 'deleteBegin':
      case 'deleteEnd':
        return;
      default: {
        // Drawing objects, pictures and forms: only the text they carry (text boxes, captions).
        const paragraphs = subListParagraphs(item);
        if (paragraphs.length > 0) sink.paragraphs(paragraphs);
      }
    }
  }

  private control(control: XmlNode, sink: Sink): void {
    switch (localName(tagOf(control))) {
      case 'footNote':
      case 'endNote': {
        const text = this.plain(subListParagraphs(control)).replace(/\n/g, ' ');
        const label = this.notes.length + 1;
        this.notes.push(`[^${label}]: ${inlineMarkdown(text)}`);
        sink.text(`${NOTE_MARK}${label}${NOTE_MARK}`);
        return;
      }
      case 'autoNum': {
        const type = attr(control, 'numType') ?? '';
        if (type !== 'FOOTNOTE' && type !== 'ENDNOTE' && type !== 'PAGE') sink.text(attr(control, 'num') ?? '');
        return;
      }
      default:
        return; // headers, footers, page numbers, fields, bookmarks, hidden comments
    }
  }

  private table(table: XmlNode, blocks: Block[]): void {
    const caption = kids(table).find((k) => localName(tagOf(k)) === 'caption');
    const captionBlocks: Block[] = [];
    if (caption) for (const p of subListParagraphs(caption)) this.paragraph(p, captionBlocks);
    const captionFirst = caption !== undefined && ['TOP', 'LEFT'].includes(attr(caption, 'side') ?? '');
    const rows = this.grid(table);
    if (captionFirst) blocks.push(...captionBlocks);
    if (rows.length > 0) blocks.push({ type: 'table', rows });
    if (!captionFirst) blocks.push(...captionBlocks);
  }

  /** A table inside a cell or note, as lines of text: cells of a row joined by spaces. */
  private flatTable(table: XmlNode): string {
    return this.grid(table, false)
      .map((row) =>
        row
          .map((cell) => cell.text)
          .filter((text) => text !== '')
          .join(' '),
      )
      .filter((row) => row !== '')
      .join('\n');
  }

  /**
   * The rows of a table: each cell at its address (or, without one, at the next free column)
   * with its spans. Rows where no cell starts are left out, with the spans over them.
   */
  private grid(table: XmlNode, forMarkdown = true): TableCell[][] {
    const trs = kids(table)
      .filter((k) => localName(tagOf(k)) === 'tr')
      .map((tr) => kids(tr).filter((k) => localName(tagOf(k)) === 'tc'));
    const widest = Math.max(0, ...trs.map((cells) => cells.length));
    const height = trs.length;
    const reach = trs.flat().map((tc) => {
      const address = kids(tc).find((k) => localName(tagOf(k)) === 'cellAddr');
      const span = kids(tc).find((k) => localName(tagOf(k)) === 'cellSpan');
      return whole(address && attr(address, 'colAddr'), 0) + Math.max(1, whole(span && attr(span, 'colSpan'), 1));
    });
    const width = Math.min(MAX_TABLE_COLUMNS, Math.max(widest, whole(attr(table, 'colCnt'), 0), ...reach));
    if (height === 0 || width === 0) return [];

    const cells: PlacedCell[] = [];
    /** Columns taken in later rows by cells spanning down, for cells that carry no address. */
    const covered = Array.from({ length: height }, () => [] as [number, number][]);
    trs.forEach((tcs, rowIndex) => {
      let cursor = 0;
      for (const tc of tcs) {
        const parts = kids(tc);
        const address = parts.find((k) => localName(tagOf(k)) === 'cellAddr');
        const span = parts.find((k) => localName(tagOf(k)) === 'cellSpan');
        for (const [from, to] of covered[rowIndex]) if (cursor >= from && cursor < to) cursor = to;
        const row = Math.min(height - 1, whole(address && attr(address, 'rowAddr'), rowIndex));
        const col = Math.min(width - 1, whole(address && attr(address, 'colAddr'), cursor));
        const rowspan = Math.min(height - row, Math.max(1, whole(span && attr(span, 'rowSpan'), 1)));
        const colspan = Math.min(width - col, Math.max(1, whole(span && attr(span, 'colSpan'), 1)));
        if (!address) for (let r = row + 1; r < row + rowspan; r++) covered[r].push([col, col + colspan]);
        const plain = this.plain(subListParagraphs(tc));
        cells.push({
          row,
          col,
          rowspan,
          colspan,
          text: forMarkdown ? inlineMarkdown(plain) : plain.replace(/\n/g, ' '),
        });
        cursor = col + colspan;
      }
    });
    const starts = Array.from({ length: height }, (_, r) => r === 0);
    for (const cell of cells) starts[cell.row] = true;
    return gridRows(
      withoutLines(cells, starts, Array<boolean>(width).fill(true)),
      starts.filter(Boolean).length,
      width,
    );
  }
}

// ---- text --------------------------------------------------------------------------------

function pageText(raw: string, role: ParagraphRole): string {
  const lines = raw
    .split('\n')
    .map(collapseSpaces)
    .filter((line) => line !== '');
  if (lines.length === 0) return '';
  if (role.kind === 'heading') {
    const heading = lines.join(' ');
    if (heading.length <= MAX_HEADING_CHARS)
      return `${'#'.repeat(role.level)} ${escapeHeadingText(inlineMarkdown(heading))}`;
  }
  const text = inlineMarkdown(lines.join('\n')).split('\n').map(escapeLineStart).join('  \n');
  switch (role.kind) {
    case 'bullet':
      return `- ${text}`;
    case 'number':
      return `1. ${text}`;
    default:
      return text;
  }
}

/** Collected text as inline Markdown: the text escaped, the footnote numbers between NOTE_MARKs written `[^n]`. */
function inlineMarkdown(text: string): string {
  const parts = text.split(NOTE_MARK).map((part, i) => (i % 2 === 1 ? `[^${part}]` : part));
  const escaped = parts.map((part, i) => (i % 2 === 1 ? part : escapeInlineSyntax(part, parts[i + 1] ?? '')));
  return escapeEmphasis(escaped.join(''));
}

function collapseSpaces(text: string): string {
  return text.replace(/[ \t\u00a0\u3000\r]+/g, ' ').trim();
}

function bulletChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return char.trim() === '' || (code >= 0xe000 && code <= 0xf8ff) ? '-' : char;
}

function renderBlocks(blocks: Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        out.push(block.text);
        break;
      case 'rule':
        if (out.length > 0 && out[out.length - 1] !== '---') out.push('---');
        break;
      case 'table':
        out.push(tableMarkdown(block.rows));
        break;
    }
  }
  while (out[out.length - 1] === '---') out.pop();
  return out.join('\n\n');
}

// ---- XML tree ----------------------------------------------------------------------------

function tagOf(node: XmlNode): string {
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return '';
}

function localName(tag: string): string {
  if (tag.startsWith('#') || tag.startsWith('?')) return '';
  const colon = tag.indexOf(':');
  return colon === -1 ? tag : tag.slice(colon + 1);
}

function kids(node: XmlNode): XmlNode[] {
  const value = node[tagOf(node)];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attr(node: XmlNode, name: string): string | undefined {
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** All text below a node, in order. */
function textOf(node: XmlNode): string {
  if (typeof node['#text'] === 'string') return decodeEntities(node['#text']);
  return kids(node).map(textOf).join('');
}

/** The paragraphs of the nearest sub-lists below a node (a cell, note, text box or caption). */
function subListParagraphs(node: XmlNode): XmlNode[] {
  const found: XmlNode[] = [];
  walk(kids(node), (child) => {
    const tag = localName(tagOf(child));
    if (tag === 'subList') {
      found.push(...kids(child).filter((k) => localName(tagOf(k)) === 'p'));
      return false;
    }
    return true;
  });
  return found;
}

/** Visits nodes depth first; `visit` returns whether to go into the node's children. */
function walk(nodes: XmlNode[], visit: (node: XmlNode) => boolean): void {
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node)) stack.push(...[...kids(node)].reverse());
  }
}

function whole(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 && n < 100_000 ? n : fallback;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body] ?? match;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}
