import { decodeCharacterReferences, HTML_ENTITIES } from '@docconv/characters';

/** One cell of an HTML table as written: its text and how many rows and columns it spans. */
export interface HtmlCell {
  text: string;
  rowspan: number;
  colspan: number;
  /** A `<th>`, or any cell inside `<thead>`. */
  header: boolean;
}

/** An HTML table as written: rows of the cells that start in them (spanned positions are not repeated). */
export interface HtmlTable {
  rows: HtmlCell[][];
}

/** A stretch of an HTML fragment: a table, or the text between tables with the tags removed. */
export type HtmlSegment = { kind: 'table'; table: HtmlTable } | { kind: 'text'; text: string };

/** Largest span honoured; bigger values (HTML allows up to 1000 columns) are clamped to keep grids small. */
const MAX_SPAN = 1000;

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;

/** Tags that end a line of text inside a cell or around tables. */
const BLOCK_TAGS = new Set(['br', 'p', 'div', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr']);

/**
 * The tables of an HTML fragment, parsed tolerantly: unclosed cells, rows and tables are closed implicitly,
 * unknown tags are ignored, entities are decoded, and a table nested in a cell becomes text of that cell.
 */
export function htmlTables(html: string): HtmlTable[] {
  return htmlSegments(html).flatMap((segment) => (segment.kind === 'table' ? [segment.table] : []));
}

/** The fragment split into tables and the plain text around them (comments dropped, empty text left out). */
export function htmlSegments(html: string): HtmlSegment[] {
  const parser = new HtmlTableParser();
  for (const match of html.matchAll(TOKEN)) parser.token(match);
  return parser.finish();
}

/** The text of an HTML fragment without its tags and comments, with line breaks where block tags were. */
export function htmlText(html: string): string {
  return htmlSegments(html)
    .map((segment) => (segment.kind === 'text' ? segment.text : tableAsText(segment.table)))
    .join('\n');
}

function tableAsText(table: HtmlTable): string {
  return table.rows.map((row) => row.map((cell) => cell.text).join(' ')).join('\n');
}

interface OpenTable {
  rows: HtmlCell[][];
  row: HtmlCell[] | null;
  cell: { cell: HtmlCell; parts: string[] } | null;
  inHead: boolean;
}

/** A small state machine over tags and text; one instance per fragment. */
class HtmlTableParser {
  private readonly segments: HtmlSegment[] = [];
  private readonly open: OpenTable[] = [];
  private outside: string[] = [];

  token(match: RegExpMatchArray): void {
    const [raw, slash, name, attributes] = match;
    if (raw.startsWith('<!--')) return;
    if (name === undefined) this.text(decodeCharacterReferences(raw, HTML_ENTITIES).replace(/\s+/g, ' '));
    else if (slash) this.closeTag(name.toLowerCase());
    else this.openTag(name.toLowerCase(), attributes ?? '');
  }

  finish(): HtmlSegment[] {
    while (this.open.length > 0) this.closeTable();
    this.flushOutside();
    return this.segments;
  }

  private get current(): OpenTable | undefined {
    return this.open.at(-1);
  }

  private openTag(tag: string, attributes: string): void {
    const table = this.current;
    if (tag === 'table') {
      if (!table) this.flushOutside();
      this.open.push({ rows: [], row: null, cell: null, inHead: false });
    } else if (!table) {
      if (BLOCK_TAGS.has(tag)) this.outside.push('\n');
    } else if (tag === 'thead') {
      table.inHead = true;
    } else if (tag === 'tbody' || tag === 'tfoot') {
      table.inHead = false;
    } else if (tag === 'tr') {
      endRow(table);
      table.row = [];
    } else if (tag === 'td' || tag === 'th') {
      endCell(table);
      table.row ??= [];
      const cell: HtmlCell = {
        text: '',
        rowspan: spanAttribute(attributes, 'rowspan'),
        colspan: spanAttribute(attributes, 'colspan'),
        header: tag === 'th' || table.inHead,
      };
      table.cell = { cell, parts: [] };
    } else if (BLOCK_TAGS.has(tag)) {
      table.cell?.parts.push('\n');
    }
  }

  private closeTag(tag: string): void {
    const table = this.current;
    if (tag === 'table') {
      if (table) this.closeTable();
    } else if (!table) {
      if (BLOCK_TAGS.has(tag)) this.outside.push('\n');
    } else if (tag === 'thead') {
      table.inHead = false;
    } else if (tag === 'tr') {
      endRow(table);
    } else if (tag === 'td' || tag === 'th') {
      endCell(table);
    } else if (BLOCK_TAGS.has(tag)) {
      table.cell?.parts.push('\n');
    }
  }

  private text(text: string): void {
    const table = this.current;
    if (!table) this.outside.push(text);
    else table.cell?.parts.push(text);
  }

  private closeTable(): void {
    const table = this.open.pop();
    if (!table) return;
    endRow(table);
    const finished: HtmlTable = { rows: table.rows.filter((row) => row.length > 0) };
    const parent = this.current;
    if (parent) parent.cell?.parts.push('\n', tableAsText(finished), '\n');
    else if (finished.rows.length > 0) this.segments.push({ kind: 'table', table: finished });
  }

  private flushOutside(): void {
    const text = tidyText(this.outside.join(''));
    this.outside = [];
    if (text) this.segments.push({ kind: 'text', text });
  }
}

function endCell(table: OpenTable): void {
  if (!table.cell) return;
  table.cell.cell.text = tidyText(table.cell.parts.join(''));
  table.row?.push(table.cell.cell);
  table.cell = null;
}

function endRow(table: OpenTable): void {
  endCell(table);
  if (table.row) table.rows.push(table.row);
  table.row = null;
}

/** Trims every line and drops empty ones; whitespace inside a line was already collapsed. */
function tidyText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}

function spanAttribute(attributes: string, name: 'rowspan' | 'colspan'): number {
  const match = new RegExp(`\\b${name}\\s*=\\s*["']?\\s*(\\d+)`, 'i').exec(attributes);
  const value = match ? Number(match[1]) : 1;
  return Math.min(Math.max(value, 1), MAX_SPAN);
}
