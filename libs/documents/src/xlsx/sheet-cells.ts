import { OfficeReadError, scanPart } from '../office/ooxml';
import { range, type Area } from './cell-areas';
import { isoToSerial } from './date-format';
import { formatNumber } from './number-format';
import { decodeEscapes, type Workbook } from './workbook';

/**
 * A worksheet's cells as Excel displays them, read with a streaming scan (worksheets are by far
 * the largest parts): the text of every cell that shows something, its merged areas, and the
 * drawings it anchors.
 */

export function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export interface Grid {
  /** Displayed text by row, then column (both 1-based); only cells that show something. */
  cells: Map<number, Map<number, string>>;
  /** Merged areas by their first cell (`row:col`); the other cells of an area show nothing. */
  merges: Map<string, Area>;
}

/** Reads a worksheet's cells with a streaming scan: worksheets are by far the largest parts. */
export function readSheet(book: Workbook, xml: string, part: string): { grid: Grid; drawings: string[] } {
  const cells = new Map<number, Map<number, string>>();
  const areas: Area[] = [];
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
function clipMerges(cells: Map<number, Map<number, string>>, areas: Area[]): Map<string, Area> {
  const merges = new Map<string, Area>();
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
function clearCovered(cells: Map<number, Map<number, string>>, area: Area): void {
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

export function parseRef(ref: string): { row: number; col: number } | undefined {
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
