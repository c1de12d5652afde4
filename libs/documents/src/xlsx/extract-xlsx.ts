import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { escapeHeadingText, escapeLineStart, escapeText as escapeMarkdownText } from '@docconv/model';
import { gridRows, tableMarkdown, type PlacedCell } from '@docconv/model';
import { withZip, type ZipReader } from '../zip/zip-reader';
import {
  chartMarkdown,
  child,
  childrenNamed,
  descendants,
  nsAttr,
  OfficeReadError,
  pathOf,
  readPart,
  readRels,
  readXmlPart,
  scanPart,
  relsOfType,
  runText,
  textContent,
  unreadable,
  type Relationship,
  type XmlNode,
} from '../office/ooxml';

/**
 * Markdown from an Excel workbook (XLSX or XLSM), read straight from its OOXML parts: one
 * `##` heading per visible worksheet that holds something, then each block of cells (cells
 * separated from the rest by empty rows or columns) as a table whose first row is the header
 * (GFM, or HTML with row and column spans when cells are merged), values as Excel displays
 * them, followed by the sheet's charts, pictures, text boxes and cell comments in their places.
 * Chart sheets and hidden sheets are left out.
 */
export async function extractXlsx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  try {
    return await withZip(path, readWorkbook, new DecompressionBudget(displayName, limits));
  } catch (error) {
    throw unreadable(error, displayName, 'Excel', 'Check that it opens in Excel, save it again as .xlsx');
  }
}

interface Workbook {
  zip: ZipReader;
  strings: string[];
  /** The number format code of each cell style (`s` attribute), by index. */
  formats: string[];
  date1904: boolean;
}

async function readWorkbook(zip: ZipReader): Promise<string> {
  const rootRels = await readRels(zip, '');
  const part = relsOfType(rootRels, 'officeDocument')[0]?.target ?? 'xl/workbook.xml';
  const workbook = await readXmlPart(zip, part);
  const root = child(workbook, 'workbook');
  if (!root) throw new OfficeReadError(`it has no workbook part (${part})`);
  const rels = await readRels(zip, part);

  const stringsRel = relsOfType(rels, 'sharedStrings')[0];
  const strings = stringsRel ? await readSharedStrings(zip, stringsRel.target) : [];

  const stylesRel = relsOfType(rels, 'styles')[0];
  const styles = child(stylesRel ? await readXmlPart(zip, stylesRel.target) : undefined, 'styleSheet');
  const custom = new Map<number, string>();
  for (const fmt of childrenNamed(child(styles, 'numFmts'), 'numFmt'))
    custom.set(Number(fmt.attrs.numFmtId), fmt.attrs.formatCode ?? 'General');
  const formats = childrenNamed(child(styles, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(xf.attrs.numFmtId ?? 0);
    return custom.get(id) ?? BUILT_IN_FORMATS[id] ?? 'General';
  });

  const book: Workbook = {
    zip,
    strings,
    formats,
    date1904: ['1', 'true'].includes(child(root, 'workbookPr')?.attrs.date1904 ?? ''),
  };
  const sections: string[] = [];
  for (const sheet of childrenNamed(child(root, 'sheets'), 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const rel = rels.get(nsAttr(sheet, 'id') ?? '');
    if (!rel || rel.external || rel.type !== 'worksheet') continue;
    const body = await sheetMarkdown(book, rel.target);
    if (body) sections.push(`## ${escapeHeadingText(escapeMarkdownText(sheet.attrs.name ?? 'Sheet'))}\n\n${body}`);
  }
  return sections.length === 0 ? '' : `${sections.join('\n\n')}\n`;
}

async function readSharedStrings(zip: ZipReader, part: string): Promise<string[]> {
  const xml = await readPart(zip, part);
  if (xml === undefined) return [];
  const strings: string[] = [];
  let current: string | undefined;
  let capture = false;
  let phonetic = 0;
  scanPart(xml, part, {
    open(name, _attrs, empty) {
      if (name === 'si') current = '';
      else if (name === 'rPh' && !empty) phonetic++;
      else if (name === 't' && !empty && phonetic === 0) capture = current !== undefined;
    },
    close(name) {
      if (name === 't') capture = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'si' && current !== undefined) {
        strings.push(decodeEscapes(current));
        current = undefined;
      }
    },
    text(text) {
      if (capture) current += text;
    },
  });
  return strings;
}

/** `_x000D_` and friends: characters SpreadsheetML escapes inside strings. */
function decodeEscapes(text: string): string {
  return text.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// ---- one worksheet ---------------------------------------------------------------------------

interface Item {
  row: number;
  col: number;
  markdown: string;
}

async function sheetMarkdown(book: Workbook, part: string): Promise<string> {
  const xml = await readPart(book.zip, part);
  if (xml === undefined) throw new OfficeReadError(`${part} is missing`);
  const { grid, drawings } = readSheet(book, xml, part);
  const rels = await readRels(book.zip, part);

  const items: Item[] = blocksOf(grid).map((block) => ({
    row: block.top,
    col: block.left,
    markdown: blockMarkdown(grid, block),
  }));
  for (const id of drawings) {
    const rel = rels.get(id);
    if (rel && !rel.external) items.push(...(await drawingItems(book.zip, rel.target)));
  }
  items.sort((a, b) => a.row - b.row || a.col - b.col);
  const parts = items.map((i) => i.markdown).filter(Boolean);
  const comments = await commentsMarkdown(book.zip, rels);
  if (comments) parts.push(comments);
  return parts.join('\n\n');
}

/** Largest number of empty cells a table may carry beyond four per filled one; sparser blocks become lists. */
const SPARSE_SLACK = 100_000;

function blockMarkdown(grid: Grid, block: Block & { filled: number }): string {
  const rows = range(block.top, block.bottom);
  const cols = range(block.left, block.right);
  if (rows.length * cols.length > 4 * block.filled + SPARSE_SLACK) {
    const lines: string[] = [];
    for (const r of [...grid.cells.keys()].sort((a, b) => a - b)) {
      if (r < block.top || r > block.bottom) continue;
      const line = grid.cells.get(r)!;
      for (const c of [...line.keys()].sort((a, b) => a - b))
        if (c >= block.left && c <= block.right)
          lines.push(`- ${columnName(c)}${r}: ${escapeMarkdownText(line.get(c)!)}`);
    }
    return lines.join('\n');
  }
  const cells: PlacedCell[] = [];
  for (const r of rows) {
    const line = grid.cells.get(r);
    if (!line) continue;
    for (const c of cols) {
      const value = line.get(c);
      if (value === undefined) continue;
      const merge = grid.merges.get(`${r}:${c}`);
      cells.push({
        row: r - block.top,
        col: c - block.left,
        rowspan: merge ? merge.bottom - r + 1 : 1,
        colspan: merge ? merge.right - c + 1 : 1,
        text: escapeMarkdownText(value),
      });
    }
  }
  return tableMarkdown(gridRows(cells, rows.length, cols.length));
}

function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

interface Grid {
  /** Displayed text by row, then column (both 1-based); only cells that show something. */
  cells: Map<number, Map<number, string>>;
  /** Merged areas by their first cell (`row:col`); the other cells of an area show nothing. */
  merges: Map<string, Block>;
}

/** Reads a worksheet's cells with a streaming scan: worksheets are by far the largest parts. */
function readSheet(book: Workbook, xml: string, part: string): { grid: Grid; drawings: string[] } {
  const cells = new Map<number, Map<number, string>>();
  const areas: Block[] = [];
  const drawings: string[] = [];
  let root: string | undefined;
  let rowNumber = 0;
  let colNumber = 0;
  let cell: { attrs: Record<string, string>; value: string; inline: string } | undefined;
  let capture: 'value' | 'inline' | undefined;
  let phonetic = 0;
  scanPart(xml, part, {
    open(name, attrs, empty) {
      root ??= name;
      switch (name) {
        case 'row':
          rowNumber = Number(attrs.r) || rowNumber + 1;
          colNumber = 0;
          break;
        case 'c':
          colNumber = parseRef(attrs.r ?? '')?.col ?? colNumber + 1;
          cell = { attrs, value: '', inline: '' };
          if (empty) cell = undefined;
          break;
        case 'v':
          if (cell && !empty) capture = 'value';
          break;
        case 't':
          if (cell && !empty && phonetic === 0) capture = 'inline';
          break;
        case 'rPh':
          if (!empty) phonetic++;
          break;
        case 'mergeCell': {
          const [from, to] = (attrs.ref ?? '').split(':').map(parseRef);
          if (from && to)
            areas.push({
              top: Math.min(from.row, to.row),
              left: Math.min(from.col, to.col),
              bottom: Math.max(from.row, to.row),
              right: Math.max(from.col, to.col),
            });
          break;
        }
        case 'drawing': {
          const id = Object.entries(attrs).find(([key]) => key.endsWith(':id'))?.[1];
          if (id) drawings.push(id);
          break;
        }
        default:
          break;
      }
    },
    close(name) {
      if (name === 'v' || name === 't') capture = undefined;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'c' && cell) {
        const text = cellText(book, cell.attrs, cell.value, cell.inline);
        if (text.trim()) {
          let line = cells.get(rowNumber);
          if (!line) cells.set(rowNumber, (line = new Map<number, string>()));
          line.set(colNumber, text);
        }
        cell = undefined;
      }
    },
    text(text) {
      if (!cell || !capture) return;
      if (capture === 'value') cell.value += text;
      else cell.inline += text;
    },
  });
  if (root !== 'worksheet') throw new OfficeReadError(`${part} is not a worksheet`);
  return { grid: { cells, merges: clipMerges(cells, areas) }, drawings };
}

/**
 * The merged areas whose first cell shows something, clipped to the cells in use, by their
 * first cell. The other cells of every merged area are emptied: Excel shows only the first.
 */
function clipMerges(cells: Map<number, Map<number, string>>, areas: Block[]): Map<string, Block> {
  const merges = new Map<string, Block>();
  if (areas.length === 0 || cells.size === 0) return merges;
  let lastRow = 0;
  let lastCol = 0;
  for (const [row, line] of cells) {
    lastRow = Math.max(lastRow, row);
    for (const col of line.keys()) lastCol = Math.max(lastCol, col);
  }
  for (const area of areas) {
    const clipped = { ...area, bottom: Math.min(area.bottom, lastRow), right: Math.min(area.right, lastCol) };
    clearCovered(cells, clipped);
    if (cells.get(area.top)?.has(area.left)) merges.set(`${area.top}:${area.left}`, clipped);
  }
  return merges;
}

/**
 * Deletes the values of a merged area but its first cell's. Visits whichever is fewer, the
 * area's rows or the rows in use (and likewise for columns), so a merged header over a long
 * sheet costs no more than the sheet.
 */
function clearCovered(cells: Map<number, Map<number, string>>, area: Block): void {
  for (const row of within(cells, area.top, area.bottom)) {
    const line = cells.get(row);
    if (!line) continue;
    for (const col of within(line, area.left, area.right)) if (row !== area.top || col !== area.left) line.delete(col);
  }
}

/** The keys of a map from `from` to `to`, from the shorter of the range and the map's keys. */
function within(map: Map<number, unknown>, from: number, to: number): number[] {
  if (to < from) return [];
  if (to - from + 1 <= map.size) return range(from, to).filter((key) => map.has(key));
  return [...map.keys()].filter((key) => key >= from && key <= to);
}

function parseRef(ref: string): { row: number; col: number } | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!match) return undefined;
  let col = 0;
  for (const ch of match[1].toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
  return { row: Number(match[2]), col };
}

function cellText(book: Workbook, attrs: Record<string, string>, raw: string, inline: string): string {
  const format = () => book.formats[Number(attrs.s ?? 0)] ?? 'General';
  switch (attrs.t) {
    case 's':
      return book.strings[Number(raw)] ?? '';
    case 'inlineStr':
      return decodeEscapes(inline);
    case 'str':
    case 'e':
      return decodeEscapes(raw);
    case 'b':
      return raw === '' ? '' : raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE';
    case 'd': {
      const serial = isoToSerial(raw, book.date1904);
      return serial === undefined ? raw : formatNumber(serial, format(), book.date1904);
    }
    default: {
      if (raw.trim() === '') return '';
      const value = Number(raw);
      return Number.isFinite(value) ? formatNumber(value, format(), book.date1904) : raw;
    }
  }
}

// ---- blocks of cells ---------------------------------------------------------------------------

interface Block {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * Splits the used cells into rectangular blocks separated by wholly empty rows or columns,
 * cutting recursively (rows first), so side-by-side and stacked tables come out apart and
 * each block is trimmed of empty edges.
 */
function blocksOf(grid: Grid): (Block & { filled: number })[] {
  const cells: Block[] = [];
  for (const [row, line] of grid.cells) {
    for (const col of line.keys()) {
      const merge = grid.merges.get(`${row}:${col}`);
      cells.push({ top: row, left: col, bottom: merge?.bottom ?? row, right: merge?.right ?? col });
    }
  }
  const blocks: (Block & { filled: number })[] = [];
  // each pass splits along one axis; a group that does not split is tried along the other
  const work: { group: Block[]; byRows: boolean; triedOther: boolean }[] = [];
  if (cells.length > 0) work.push({ group: cells, byRows: true, triedOther: false });
  for (let task = work.pop(); task; task = work.pop()) {
    const { group, byRows, triedOther } = task;
    const start = (b: Block) => (byRows ? b.top : b.left);
    const end = (b: Block) => (byRows ? b.bottom : b.right);
    const parts: Block[][] = [];
    let reach = -Infinity;
    for (const cell of [...group].sort((a, b) => start(a) - start(b))) {
      if (start(cell) > reach + 1) parts.push([]);
      parts[parts.length - 1].push(cell);
      reach = Math.max(reach, end(cell));
    }
    if (parts.length > 1) work.push(...parts.map((part) => ({ group: part, byRows: !byRows, triedOther: false })));
    else if (!triedOther) work.push({ group, byRows: !byRows, triedOther: true });
    else {
      const groups = cornerGroups(group);
      if (groups.length > 1) work.push(...groups.map((g) => ({ group: g, byRows: true, triedOther: false })));
      else blocks.push({ ...boundsOf(group), filled: group.reduce((n, cell) => n + areaOf(cell), 0) });
    }
  }
  return blocks;
}

/** Cells of a merged area larger than this join their neighbours through the top-left cell only. */
const MAX_MERGE_LINKS = 10_000;

/**
 * Tables that touch only at a corner (one ends where the next begins, diagonally): groups of
 * edge-connected cells whose extents share no row and no column. One group when there are none.
 */
function cornerGroups(cells: Block[]): Block[][] {
  const key = (row: number, col: number) => row * 20_000 + col; // columns stop at 16,384
  const owner = new Map<number, number>();
  cells.forEach((cell, i) => {
    const whole = areaOf(cell) <= MAX_MERGE_LINKS;
    for (let r = cell.top; r <= (whole ? cell.bottom : cell.top); r++)
      for (let c = cell.left; c <= (whole ? cell.right : cell.left); c++) owner.set(key(r, c), i);
  });
  const parent = cells.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const x = find(a);
    const y = find(b);
    if (x !== y) parent[x] = y;
  };
  for (const [at, i] of owner) {
    for (const next of [at + 1, at + 20_000]) {
      const j = owner.get(next);
      if (j !== undefined) union(i, j);
    }
  }
  const components = new Map<number, Block[]>();
  cells.forEach((cell, i) => {
    const root = find(i);
    const members = components.get(root);
    if (members) members.push(cell);
    else components.set(root, [cell]);
  });
  if (components.size === 1) return [cells];
  // components whose extents overlap in rows or in columns belong to the same table
  let parts = [...components.values()].map((members) => ({ members, bounds: boundsOf(members) }));
  for (let count = Infinity; parts.length > 1 && parts.length < count;) {
    count = parts.length;
    parts = joinOverlapping(joinOverlapping(parts, 'rows'), 'columns');
  }
  return parts.map((part) => part.members);
}

interface Part {
  members: Block[];
  bounds: Block;
}

function joinOverlapping(parts: Part[], axis: 'rows' | 'columns'): Part[] {
  const start = (b: Block) => (axis === 'rows' ? b.top : b.left);
  const end = (b: Block) => (axis === 'rows' ? b.bottom : b.right);
  const joined: Part[] = [];
  for (const part of [...parts].sort((a, b) => start(a.bounds) - start(b.bounds))) {
    const last = joined[joined.length - 1];
    if (last && start(part.bounds) <= end(last.bounds)) {
      for (const cell of part.members) last.members.push(cell);
      last.bounds = boundsOf([last.bounds, part.bounds]);
    } else joined.push({ members: [...part.members], bounds: part.bounds });
  }
  return joined;
}

/** How many cells a block covers. */
function areaOf(block: Block): number {
  return (block.bottom - block.top + 1) * (block.right - block.left + 1);
}

function boundsOf(cells: Block[]): Block {
  const bounds = { ...cells[0] };
  for (const c of cells) {
    bounds.top = Math.min(bounds.top, c.top);
    bounds.left = Math.min(bounds.left, c.left);
    bounds.bottom = Math.max(bounds.bottom, c.bottom);
    bounds.right = Math.max(bounds.right, c.right);
  }
  return bounds;
}

// ---- drawings and comments --------------------------------------------------------------------

async function drawingItems(zip: ZipReader, part: string): Promise<Item[]> {
  const drawing = child(await readXmlPart(zip, part), 'wsDr');
  const rels = await readRels(zip, part);
  const items: Item[] = [];
  for (const anchor of drawing?.children ?? []) {
    if (!anchor.name.endsWith('Anchor')) continue;
    const from = child(anchor, 'from');
    const row = Number(textContent(child(from, 'row')) || 0) + 1;
    const col = Number(textContent(child(from, 'col')) || 0) + 1;
    for (const markdown of await anchorContent(zip, anchor, rels)) items.push({ row, col, markdown });
  }
  return items;
}

async function anchorContent(zip: ZipReader, node: XmlNode, rels: Map<string, Relationship>): Promise<string[]> {
  const out: string[] = [];
  for (const shape of node.children) {
    switch (shape.name) {
      case 'graphicFrame': {
        const ref = child(pathOf(shape, 'graphic', 'graphicData'), 'chart');
        const rel = rels.get(nsAttr(ref, 'id') ?? '');
        const chart = rel && !rel.external ? await readXmlPart(zip, rel.target) : undefined;
        if (chart) out.push(chartMarkdown(chart));
        break;
      }
      case 'pic': {
        const descr = pathOf(shape, 'nvPicPr', 'cNvPr')?.attrs.descr?.trim();
        out.push(descr ? `<!-- image: ${descr.replace(/--/g, '—').replace(/\s+/g, ' ')} -->` : '<!-- image -->');
        break;
      }
      case 'sp': {
        const text = childrenNamed(child(shape, 'txBody'), 'p')
          .map((p) => escapeLineStart(escapeMarkdownText(runText(p).trim())))
          .filter(Boolean)
          .join('\n\n');
        if (text) out.push(text);
        break;
      }
      case 'grpSp':
        out.push(...(await anchorContent(zip, shape, rels)));
        break;
      case 'AlternateContent':
        out.push(...(await anchorContent(zip, child(shape, 'Choice') ?? shape, rels)));
        break;
      default:
        break;
    }
  }
  return out;
}

/** Cell notes and threaded comments, as a list under the sheet. */
async function commentsMarkdown(zip: ZipReader, rels: Map<string, Relationship>): Promise<string> {
  const lines: string[] = [];
  for (const rel of relsOfType(rels, 'comments')) {
    if (rel.external) continue;
    const comments = child(await readXmlPart(zip, rel.target), 'comments');
    const authors = childrenNamed(child(comments, 'authors'), 'author').map((a) => textContent(a).trim());
    for (const comment of descendants(child(comments, 'commentList'), 'comment')) {
      const text = decodeEscapes(runText(child(comment, 'text')))
        .replace(/\s+/g, ' ')
        .trim();
      if (!text) continue;
      const author = authors[Number(comment.attrs.authorId ?? -1)];
      lines.push(
        `- ${comment.attrs.ref ?? ''}${author ? ` (${escapeMarkdownText(author)})` : ''}: ${escapeMarkdownText(text)}`,
      );
    }
  }
  return lines.length ? `### Comments\n\n${lines.join('\n')}` : '';
}

// ---- number formats ----------------------------------------------------------------------------

/** Excel's built-in formats; short dates are written ISO 8601, the one reading no locale confuses. */
const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '#,##0_);(#,##0)',
  6: '#,##0_);[Red](#,##0)',
  7: '#,##0.00_);(#,##0.00)',
  8: '#,##0.00_);[Red](#,##0.00)',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
  ...Object.fromEntries(
    [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58].map((id) => [id, 'yyyy-mm-dd']),
  ),
};

type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'digit'; char: '0' | '#' | '?' }
  | { kind: 'point' }
  | { kind: 'comma' }
  | { kind: 'percent' }
  | { kind: 'exponent'; sign: '+' | '-' }
  | { kind: 'slash' }
  | { kind: 'text' }
  | { kind: 'general' }
  | { kind: 'date'; code: string }
  | { kind: 'ampm'; code: string }
  | { kind: 'elapsed'; unit: 'h' | 'm' | 's'; width: number };

interface Section {
  tokens: Token[];
  condition?: { op: string; value: number };
  isDate: boolean;
}

const sectionCache = new Map<string, Section[]>();

/** The text Excel shows for a number under a format code. */
export function formatNumber(value: number, code: string, date1904 = false): string {
  let sections = sectionCache.get(code);
  if (!sections) {
    sections = splitSections(code).map(parseSection);
    if (sectionCache.size > 1000) sectionCache.clear();
    sectionCache.set(code, sections);
  }
  const numeric = sections.filter((_, i) => i < 3);
  let section: Section | undefined;
  let magnitude = value;
  let signed = true; // whether the section shows the sign itself
  if (numeric.some((s) => s.condition)) {
    section = numeric.find((s) => s.condition && compare(value, s.condition)) ?? numeric.find((s) => !s.condition);
    if (section && section !== numeric[0] && value < 0) magnitude = Math.abs(value);
    signed = section === numeric[0] || value >= 0;
  } else if (value < 0 && numeric.length >= 2) {
    section = numeric[1];
    magnitude = -value;
  } else if (value === 0 && numeric.length >= 3) section = numeric[2];
  else section = numeric[0];
  if (!section) return formatGeneral(value);
  if (section.isDate) return formatDate(value, section.tokens, date1904);
  const text = formatWithTokens(Math.abs(magnitude), section.tokens);
  return (magnitude < 0 && signed && text !== '' && /[1-9]/.test(text) ? '-' : '') + text;
}

function compare(value: number, condition: { op: string; value: number }): boolean {
  switch (condition.op) {
    case '<':
      return value < condition.value;
    case '<=':
      return value <= condition.value;
    case '>':
      return value > condition.value;
    case '>=':
      return value >= condition.value;
    case '=':
      return value === condition.value;
    case '<>':
      return value !== condition.value;
    default:
      return false;
  }
}

function splitSections(code: string): string[] {
  const sections: string[] = [];
  let current = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === '\\' || ch === '_' || ch === '*') {
      current += code.slice(i, i + 2);
      i++;
    } else if (ch === '[') {
      const end = code.indexOf(']', i);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === ';') {
      sections.push(current);
      current = '';
    } else current += ch;
  }
  sections.push(current);
  return sections;
}

const LONG_DATE = 'dddd, mmmm d, yyyy';
const LONG_TIME = 'h:mm:ss AM/PM';

function parseSection(source: string): Section {
  const tokens: Token[] = [];
  let condition: Section['condition'];
  let code = source;
  if (/\[\$-F800\]/i.test(code)) code = LONG_DATE;
  else if (/\[\$-F400\]/i.test(code)) code = LONG_TIME;
  const literal = (text: string) => tokens.push({ kind: 'literal', text });
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    const rest = code.slice(i);
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end;
      literal(code.slice(i + 1, stop));
      i = stop;
    } else if (ch === '\\') {
      literal(code[i + 1] ?? '');
      i++;
    } else if (ch === '_') {
      literal(' ');
      i++;
    } else if (ch === '*') {
      i++;
    } else if (ch === '[') {
      const end = code.indexOf(']', i);
      const inner = code.slice(i + 1, end < 0 ? code.length : end);
      i = end < 0 ? code.length : end;
      const elapsed = /^(h+|m+|s+)$/i.exec(inner);
      const cond = /^(<=|>=|<>|<|>|=)\s*(-?[\d.]+)$/.exec(inner);
      if (elapsed)
        tokens.push({
          kind: 'elapsed',
          unit: elapsed[1][0].toLowerCase() as 'h' | 'm' | 's',
          width: elapsed[1].length,
        });
      else if (cond) condition = { op: cond[1], value: Number(cond[2]) };
      else if (inner.startsWith('$')) {
        const symbol = inner.slice(1).split('-')[0];
        if (symbol) literal(symbol);
      }
    } else if (/^general/i.test(rest)) {
      tokens.push({ kind: 'general' });
      i += 6;
    } else if (/^(am\/pm|a\/p)/i.test(rest)) {
      const text = /^(am\/pm|a\/p)/i.exec(rest)![0];
      tokens.push({ kind: 'ampm', code: text });
      i += text.length - 1;
    } else if (/^[eE][+-]/.test(rest) && tokens.some((t) => t.kind === 'digit')) {
      tokens.push({ kind: 'exponent', sign: rest[1] as '+' | '-' });
      i++;
    } else if (/[yYmMdDhHsS]/.test(ch)) {
      let j = i;
      while (j < code.length && code[j].toLowerCase() === ch.toLowerCase()) j++;
      tokens.push({ kind: 'date', code: code.slice(i, j).toLowerCase() });
      i = j - 1;
    } else if (ch === '0' || ch === '#' || ch === '?') tokens.push({ kind: 'digit', char: ch });
    else if (ch === '.') tokens.push({ kind: 'point' });
    else if (ch === ',') tokens.push({ kind: 'comma' });
    else if (ch === '%') tokens.push({ kind: 'percent' });
    else if (ch === '/') tokens.push({ kind: 'slash' });
    else if (ch === '@') tokens.push({ kind: 'text' });
    else literal(ch);
  }
  const isDate = tokens.some((t) => t.kind === 'date' || t.kind === 'elapsed' || t.kind === 'ampm');
  // in a date, '.' followed by zeros is a fraction of a second, and '0' is its digit
  return { tokens, condition, isDate };
}

/** Excel's General: up to 11 characters, integers whole, very large or small numbers in scientific notation. */
function formatGeneral(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e11 || abs < 1e-9) {
    const [mantissa, exponent] = value.toExponential(5).split('e');
    const exp = Number(exponent);
    return `${mantissa.replace(/\.?0+$/, '')}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (Number.isInteger(value)) return String(value);
  const intLength = String(Math.trunc(abs)).length + (value < 0 ? 1 : 0);
  const decimals = Math.max(0, 10 - intLength);
  return roundTo(value, decimals)
    .toFixed(decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** Rounds half away from zero in decimal, as Excel does (1.005 → 1.01). */
function roundTo(value: number, decimals: number): number {
  if (Math.abs(value) >= 1e21) return value;
  const shifted = Number(`${Math.abs(value)}e${decimals}`);
  const rounded = Number(`${Math.round(shifted)}e-${decimals}`);
  return Number.isFinite(rounded) ? Math.sign(value) * rounded : value;
}

function formatWithTokens(value: number, tokens: Token[]): string {
  // General, and the text placeholder, which shows a number as General
  if (tokens.some((t) => t.kind === 'general' || t.kind === 'text')) {
    return tokens
      .map((t) =>
        t.kind === 'general' || t.kind === 'text' ? formatGeneral(value) : t.kind === 'literal' ? t.text : '',
      )
      .join('')
      .trim();
  }
  const digitIndexes = tokens.flatMap((t, i) => (t.kind === 'digit' ? [i] : []));
  if (digitIndexes.length === 0) {
    // no digits: the section is all literal (e.g. "-" for zero in accounting formats)
    return tokens
      .map((t) => (t.kind === 'literal' ? t.text : t.kind === 'percent' ? '%' : ''))
      .join('')
      .trim();
  }
  const first = digitIndexes[0];
  const last = digitIndexes[digitIndexes.length - 1];
  const slash = tokens.findIndex((t, i) => t.kind === 'slash' && i > first && i < last);
  let scaled = value;
  for (const t of tokens) if (t.kind === 'percent') scaled *= 100;
  // commas right after the last digit placeholder divide by a thousand each
  for (let i = last + 1; i < tokens.length && tokens[i].kind === 'comma'; i++) scaled /= 1000;

  const number =
    slash >= 0
      ? fractionText(scaled, tokens.slice(first, last + 1), slash - first)
      : decimalText(scaled, tokens.slice(first, last + 1));
  const before = tokens
    .slice(0, first)
    .map((t) => tokenText(t))
    .join('');
  const after = tokens
    .slice(last + 1)
    .map((t) => tokenText(t))
    .join('');
  return `${before}${number}${after}`.trim();
}

function tokenText(t: Token): string {
  switch (t.kind) {
    case 'literal':
      return t.text;
    case 'percent':
      return '%';
    case 'point':
      return '.';
    default:
      return '';
  }
}

/** Digits for the placeholders between the first and the last one (integer part, decimals, exponent). */
function decimalText(value: number, tokens: Token[]): string {
  const exponentAt = tokens.findIndex((t) => t.kind === 'exponent');
  const mantissaTokens = exponentAt >= 0 ? tokens.slice(0, exponentAt) : tokens;
  const pointAt = mantissaTokens.findIndex((t) => t.kind === 'point');
  const intTokens = pointAt >= 0 ? mantissaTokens.slice(0, pointAt) : mantissaTokens;
  const fracTokens = pointAt >= 0 ? mantissaTokens.slice(pointAt + 1) : [];
  const fracDigits = fracTokens.filter((t) => t.kind === 'digit') as { kind: 'digit'; char: string }[];
  const grouping = intTokens.some((t) => t.kind === 'comma');

  let mantissa = value;
  let exponentText = '';
  if (exponentAt >= 0) {
    const expTokens = tokens.slice(exponentAt + 1).filter((t) => t.kind === 'digit');
    const intPlaces = Math.max(1, intTokens.filter((t) => t.kind === 'digit').length);
    let exponent = value === 0 ? 0 : Math.floor(Math.log10(value));
    // engineering style (##0.0E+0): exponents in multiples of the integer placeholders
    if (intPlaces > 1) exponent = Math.floor(exponent / intPlaces) * intPlaces;
    mantissa = value === 0 ? 0 : value / 10 ** exponent;
    if (roundTo(mantissa, fracDigits.length) >= 10 ** intPlaces) {
      exponent += intPlaces > 1 ? intPlaces : 1;
      mantissa = value / 10 ** exponent;
    }
    const sign = (tokens[exponentAt] as { sign: string }).sign;
    exponentText = `E${exponent < 0 ? '-' : sign === '+' ? '+' : ''}${String(Math.abs(exponent)).padStart(Math.max(1, expTokens.length), '0')}`;
  }

  const rounded = roundTo(mantissa, fracDigits.length);
  const fixed = rounded.toFixed(fracDigits.length);
  const [intPart, fracPart = ''] = fixed.split('.');

  // fractional digits: trailing zeros dropped under '#', blanked under '?'
  let frac = fracPart.split('');
  for (let i = frac.length - 1; i >= 0 && frac[i] === '0'; i--) {
    if (fracDigits[i].char === '#') frac.pop();
    else if (fracDigits[i].char === '?') frac[i] = ' ';
    else break;
  }
  frac = frac.slice(0, fracDigits.length);
  const fracLiterals = fracTokens
    .filter((t) => t.kind === 'literal')
    .map((t) => (t as { text: string }).text)
    .join('');

  const intText = fillInteger(intPart === '0' ? '' : intPart, intTokens, grouping);
  const point = pointAt >= 0 ? '.' : '';
  return `${intText}${point}${frac.join('')}${fracLiterals}${exponentText}`;
}

/** Places integer digits into their placeholders right to left, keeping literals between them (phone numbers, IDs). */
function fillInteger(digits: string, tokens: Token[], grouping: boolean): string {
  const placeholders = tokens.filter((t) => t.kind === 'digit') as { kind: 'digit'; char: string }[];
  const minimum = placeholders.filter((p) => p.char === '0').length;
  const hasLiterals = tokens.some((t) => t.kind === 'literal');
  if (!hasLiterals || grouping) {
    let text = digits.padStart(minimum, '0');
    if (grouping) text = text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const spaces = placeholders.filter((p) => p.char === '?').length - Math.max(minimum, digits.length);
    return (spaces > 0 ? ' '.repeat(spaces) : '') + text;
  }
  let remaining = digits;
  const out: string[] = [];
  let placeholdersLeft = placeholders.length;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.kind === 'literal') {
      out.unshift(t.text);
      continue;
    }
    if (t.kind !== 'digit') continue;
    placeholdersLeft--;
    if (placeholdersLeft === 0) {
      out.unshift(remaining || (t.char === '0' ? '0' : t.char === '?' ? ' ' : ''));
      remaining = '';
    } else if (remaining) {
      out.unshift(remaining.slice(-1));
      remaining = remaining.slice(0, -1);
    } else out.unshift(t.char === '0' ? '0' : t.char === '?' ? ' ' : '');
  }
  return out.join('');
}

/** Fractions (`# ?/?`, `# ??/100`): the best fraction with the denominator's digits. */
function fractionText(value: number, tokens: Token[], slashAt: number): string {
  const denominatorTokens = tokens.slice(slashAt + 1);
  const fixedDenominator = Number(
    denominatorTokens
      .filter((t) => t.kind === 'literal')
      .map((t) => (t as { text: string }).text)
      .join('')
      .trim(),
  );
  const numeratorTokens = tokens.slice(0, slashAt);
  // a space-separated whole part before the numerator makes a mixed fraction
  const splitAt = numeratorTokens.findIndex((t) => t.kind === 'literal' && /\s/.test(t.text));
  const mixed = splitAt > 0;
  const whole = mixed ? Math.floor(value) : 0;
  const rest = value - whole;
  let numerator: number;
  let denominator: number;
  if (fixedDenominator > 0) {
    denominator = fixedDenominator;
    numerator = Math.round(rest * denominator);
  } else {
    const places = Math.max(1, denominatorTokens.filter((t) => t.kind === 'digit').length);
    [numerator, denominator] = bestFraction(rest, 10 ** places - 1);
  }
  if (numerator === denominator && mixed) return String(whole + 1);
  if (numerator === 0) return mixed ? String(whole) : '0';
  return `${mixed && whole ? `${whole} ` : ''}${numerator}/${denominator}`;
}

function bestFraction(value: number, maxDenominator: number): [number, number] {
  let best: [number, number] = [Math.round(value), 1];
  let bestError = Math.abs(value - best[0]);
  for (let d = 1; d <= maxDenominator; d++) {
    const n = Math.round(value * d);
    const error = Math.abs(value - n / d);
    if (error < bestError - 1e-12) {
      best = [n, d];
      bestError = error;
    }
  }
  return best;
}

// ---- dates -------------------------------------------------------------------------------------

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface DateParts {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hours: number;
  minutes: number;
  seconds: number;
  fraction: number;
}

function dateParts(serial: number, date1904: boolean): DateParts {
  let days = Math.floor(serial);
  let time = Math.round((serial - days) * 86400 * 1000) / 1000;
  if (time >= 86400) {
    days += 1;
    time -= 86400;
  }
  let date: Date;
  let weekday: number;
  if (date1904) {
    date = new Date(Date.UTC(1904, 0, 1 + days));
    weekday = date.getUTCDay();
  } else if (days === 60) {
    // Excel's 29 February 1900, which never was
    return { year: 1900, month: 2, day: 29, weekday: 3, ...timeParts(time) };
  } else {
    date = new Date(Date.UTC(1899, 11, days < 60 ? 31 + days : 30 + days));
    weekday = date.getUTCDay();
  }
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday,
    ...timeParts(time),
  };
}

function timeParts(time: number): Pick<DateParts, 'hours' | 'minutes' | 'seconds' | 'fraction'> {
  const whole = Math.floor(time);
  return {
    hours: Math.floor(whole / 3600),
    minutes: Math.floor((whole % 3600) / 60),
    seconds: whole % 60,
    fraction: time - whole,
  };
}

function isoToSerial(iso: string, date1904: boolean): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?/.exec(iso.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)) + Number(s) * 1000;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  let serial = (ms - epoch) / 86400000;
  if (!date1904 && serial < 61) serial -= 1;
  return serial;
}

function formatDate(serial: number, tokens: Token[], date1904: boolean): string {
  if (serial < 0 || serial > 2958465) return formatGeneral(serial);
  const subsecondDigits = subsecondPlaces(tokens);
  const rounded = subsecondDigits > 0 ? serial : Math.round(serial * 86400) / 86400;
  const parts = dateParts(rounded, date1904);
  const twelveHour = tokens.some((t) => t.kind === 'ampm');
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.kind) {
      case 'literal':
        out += t.text;
        break;
      case 'date':
        out += dateToken(t.code, i, tokens, parts, twelveHour, pad);
        break;
      case 'ampm': {
        const pm = parts.hours >= 12;
        out += t.code.length > 3 ? (pm ? 'PM' : 'AM') : pm ? 'P' : 'A';
        break;
      }
      case 'elapsed': {
        const totalSeconds = Math.round(serial * 86400);
        const value =
          t.unit === 'h'
            ? Math.floor(totalSeconds / 3600)
            : t.unit === 'm'
              ? Math.floor(totalSeconds / 60)
              : totalSeconds;
        out += pad(value, t.width);
        break;
      }
      case 'point': {
        const zeros = countZerosAfter(tokens, i);
        if (zeros > 0) {
          out += `.${pad(Math.round(parts.fraction * 10 ** zeros), zeros).slice(0, zeros)}`;
          i += zeros;
        } else out += '.';
        break;
      }
      case 'digit':
        out += t.char === '0' ? '0' : '';
        break;
      case 'comma':
        out += ',';
        break;
      case 'percent':
        out += '%';
        break;
      case 'slash':
        out += '/';
        break;
      default:
        break;
    }
  }
  return out.trim();
}

function subsecondPlaces(tokens: Token[]): number {
  const at = tokens.findIndex((t) => t.kind === 'point');
  return at >= 0 ? countZerosAfter(tokens, at) : 0;
}

function countZerosAfter(tokens: Token[], at: number): number {
  let zeros = 0;
  for (let j = at + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'digit' && t.char === '0') zeros++;
    else break;
  }
  return zeros;
}

function dateToken(
  code: string,
  index: number,
  tokens: Token[],
  p: DateParts,
  twelveHour: boolean,
  pad: (n: number, width: number) => string,
): string {
  switch (code[0]) {
    case 'y':
      return code.length <= 2 ? pad(p.year % 100, 2) : String(p.year);
    case 'd':
      if (code.length === 1) return String(p.day);
      if (code.length === 2) return pad(p.day, 2);
      if (code.length === 3) return DAYS[p.weekday].slice(0, 3);
      return DAYS[p.weekday];
    case 'h': {
      const hours = twelveHour ? p.hours % 12 || 12 : p.hours;
      return code.length === 1 ? String(hours) : pad(hours, 2);
    }
    case 's':
      return code.length === 1 ? String(p.seconds) : pad(p.seconds, 2);
    case 'm': {
      if (code.length <= 2 && isMinute(index, tokens)) return code.length === 1 ? String(p.minutes) : pad(p.minutes, 2);
      if (code.length === 1) return String(p.month);
      if (code.length === 2) return pad(p.month, 2);
      if (code.length === 3) return MONTHS[p.month - 1].slice(0, 3);
      if (code.length === 5) return MONTHS[p.month - 1][0];
      return MONTHS[p.month - 1];
    }
    default:
      return code;
  }
}

/** `m` and `mm` are minutes right after an hour or right before a second, months otherwise. */
function isMinute(index: number, tokens: Token[]): boolean {
  for (let j = index - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.kind === 'date') return t.code[0] === 'h';
    if (t.kind === 'elapsed') return t.unit === 'h';
  }
  for (let j = index + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'date') return t.code[0] === 's';
    if (t.kind === 'elapsed') return t.unit === 's';
  }
  return false;
}
