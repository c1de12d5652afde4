import { DomainError } from '@docconv/contracts';
import { fileHeader, toMarkdown } from '@ohah/hwpjs';
import { readFile } from 'node:fs/promises';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { emphasisMarkdown, tildesCouldPair, type EmphasisContext } from '../markdown/emphasis';
import { checkHwpExpansion } from './hwp-file';
import { hwpjsInlineRuns } from './hwpjs-inline';

/** Lines hwpjs writes about the file rather than from it, in the block before the document's own text. */
const PREAMBLE_LINE = /^(#\s+HWP 문서|\*\*(버전|용지 크기|페이지[^*]*)\*\*\s*:.*)$/;
const IMAGE = /!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>/g;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const DELIMITER_ROW = /^\s*\|(\s*:?-+:?\s*\|)+\s*$/;
/** Leading whitespace and the heading, quote or list marker a line starts with. */
const BLOCK_PREFIX = /^\s*(#{1,6}\s+|>\s?|[-+]\s+|\d{1,9}[.)]\s+)?/;

/**
 * Markdown from an HWP 5 document: paragraphs in reading order, tables as GFM tables, the
 * converter's own title and version lines and the pictures left out.
 */
export async function extractHwp(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  let markdown: string;
  try {
    const data = await readFile(path);
    const locked = lockReason(data);
    if (locked) return refuse(displayName, locked, 'Save an unprotected copy in Hangul and upload that.');
    await checkHwpExpansion(path, displayName, limits);
    markdown = toMarkdown(data, { includeVersion: false, includePageInfo: false, useHtml: true }).markdown;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    return refuse(
      displayName,
      shortReason(error),
      'Check that it opens in Hangul, or save it again as HWP or HWPX and upload that.',
    );
  }
  const cleaned = cleanHwpMarkdown(markdown);
  if (cleaned === '') return '';
  return `${cleaned}\n`;
}

/**
 * Tidies hwpjs Markdown: no preamble or pictures, uniform tables, emphasis written again so that
 * CommonMark reads it, blank lines collapsed.
 */
export function cleanHwpMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let start = 0;
  while (start < lines.length && (lines[start].trim() === '' || PREAMBLE_LINE.test(lines[start].trim()))) start++;

  const out: string[] = [];
  let table: string[] = [];
  const flushTable = (): void => {
    if (table.length === 0) return;
    if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    out.push(...normalizeTable(table), '');
    table = [];
  };

  const body = lines.slice(start);
  const tildesPair = paragraphTildes(body);
  for (const [index, raw] of body.entries()) {
    if (TABLE_ROW.test(raw)) {
      table.push(raw.replace(IMAGE, ''));
      continue;
    }
    flushTable();
    const hadText = raw.trim() !== '';
    const withoutImages = raw.replace(IMAGE, '');
    if (/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(withoutImages)) {
      out.push('', '---', '');
      continue;
    }
    const line = rewriteEmphasis(withoutImages, { tildesPair: tildesPair[index] });
    if (line.trim() === '') {
      if (!hadText) out.push('');
      continue;
    }
    out.push(/\S {2,}$/.test(line) ? line.replace(/ +$/, '  ') : line.trimEnd());
  }
  flushTable();

  return out
    .map((line, i) => (/ {2}$/.test(line) && (out[i + 1] ?? '') === '' ? line.trimEnd() : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** One GFM table block with trimmed cells and the same number of cells in every row. */
function normalizeTable(rows: string[]): string[] {
  const parsed = rows.map((row) => ({ delimiter: DELIMITER_ROW.test(row), cells: splitRow(row).map(cleanCell) }));
  const width = Math.max(1, ...parsed.map((r) => r.cells.length));
  const lines = parsed.map(({ delimiter, cells }) => {
    if (delimiter) return `|${' --- |'.repeat(width)}`;
    const padded = [...cells, ...Array<string>(width - cells.length).fill('')];
    return `| ${padded.join(' | ')} |`;
  });
  if (parsed.length > 0 && !parsed[1]?.delimiter) lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return lines;
}

function splitRow(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i];
    if (char === '\\' && inner[i + 1] === '|') {
      current += '\\|';
      i++;
    } else if (char === '|') {
      cells.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current);
  return cells;
}

function cleanCell(cell: string): string {
  return rewriteEmphasis(
    cell
      .replace(/\s*<br\s*\/?>\s*/gi, '<br>')
      .replace(/(<br>)+/g, '<br>')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^(<br>)+|(<br>)+$/g, '')
      .trim(),
  );
}

/**
 * A line of hwpjs Markdown with its emphasis re-read and written again: stretches of the same
 * formatting joined, spaces moved out of the delimiters, delimiters CommonMark would not read
 * placed or dropped as `emphasisMarkdown` decides, literal `*`, `_` and `~` escaped. A heading,
 * quote or list marker at the start of the line stays as it is.
 */
function rewriteEmphasis(line: string, context: EmphasisContext = {}): string {
  const prefix = BLOCK_PREFIX.exec(line)?.[0] ?? '';
  return prefix + emphasisMarkdown(hwpjsInlineRuns(line.slice(prefix.length)), context);
}

/**
 * For every line, whether the paragraph it belongs to (the lines up to the nearest blank line or
 * table row on either side) holds single tildes that could pair into strikethrough.
 */
function paragraphTildes(lines: string[]): boolean[] {
  const out: boolean[] = [];
  while (out.length < lines.length) {
    let end = out.length;
    while (end < lines.length && lines[end].trim() !== '' && !TABLE_ROW.test(lines[end])) end++;
    const pair = tildesCouldPair(lines.slice(out.length, end));
    for (let n = Math.max(1, end - out.length); n > 0; n--) out.push(pair);
  }
  return out;
}

function lockReason(data: Buffer): string | undefined {
  let flags: unknown;
  try {
    flags = (JSON.parse(fileHeader(data)) as { document_flags?: unknown }).document_flags;
  } catch {
    return undefined; // toMarkdown reports the damage with its own reason
  }
  const names = Array.isArray(flags) ? flags.map(String) : [];
  if (names.some((n) => /encrypt|password/i.test(n))) return 'it is password-protected';
  if (names.some((n) => /distribut/i.test(n))) return 'it is distribution-locked';
  return undefined;
}

function shortReason(error: unknown): string {
  const details = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  if (typeof details.syscall === 'string') return 'the stored file could not be opened';
  const message = typeof details.message === 'string' ? details.message : String(error);
  const firstLine = message.split('\n')[0].trim().replace(/\.$/, '');
  if (firstLine === '') return 'the file is damaged';
  return firstLine.length > 160 ? `${firstLine.slice(0, 157)}...` : firstLine;
}

function refuse(displayName: string, reason: string, advice: string): never {
  throw new DomainError(
    'file_processing_failed',
    `${displayName} could not be read as an HWP document: ${reason}. ${advice}`,
  );
}
