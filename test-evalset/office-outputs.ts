import { writeMarkdown } from '@docconv/model';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractHwpx } from '../libs/documents/src/hwpx/extract-hwpx';
import { zipEntries } from '../libs/render/src/testing/zip-entries';
import { hygiene } from '../tools/eval/hygiene';
import { parseHtmlTables, parseMarkdownTables, type Table } from '../tools/eval/tables';

/** The office formats a finished job converts to. */
export const OFFICE_FORMATS = ['xlsx_basic', 'xlsx_advanced', 'docx', 'pptx', 'hwpx'] as const;
export type OfficeFormat = (typeof OFFICE_FORMATS)[number];
export const EXTENSION: Record<OfficeFormat, string> = {
  xlsx_basic: 'xlsx',
  xlsx_advanced: 'xlsx',
  docx: 'docx',
  pptx: 'pptx',
  hwpx: 'hwpx',
};

/** A plain number as a document prints it (`1,234.5`, `-7`, `0.25`); a leading zero (`0012`) is a code. */
const NUMBER = /^[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|[1-9]\d*|0)(?:\.\d+)?$/;
/** A date, or a date and time, written year first (`2024-01-01`, `2024-01-01 0:00:00`). */
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/;
/** Headers of columns whose numbers are identifiers, which the workbook keeps as text by decision. */
const IDENTIFIER_HEADER =
  /\b(?:code|id|zip|postal|phone|tel|fax|isbn|issn|sku|account|serial|pin)\b|코드|전화|우편|계좌/i;

/** What reading one output found: the problems, and the figures the summary prints. */
export interface OutputReading {
  problems: string[];
  numbers: number;
  dates: number;
  formulas: number;
}

/** Non-empty cells per table, sorted: a fingerprint of which tables a file holds, independent of their order. */
export function tableCellCounts(tables: Table[]): number[] {
  return tables
    .map((table) => table.rows.flat().filter((cell) => cell.text.trim() !== '').length)
    .filter((count) => count > 0)
    .sort((a, b) => a - b);
}

/**
 * `**` or `~~` against a word (`**bold`, `bold**`): emphasis markup printed as text. A run of three or more
 * (`'*****'`, a masked value in code) is text the document has.
 */
const LITERAL_MARKER = /(?<![*~])(?:\*\*|~~)(?=[^\s*~])|(?<=[^\s*~])(?:\*\*|~~)(?![*~])/;

export function literalMarkers(text: string, where: string): string[] {
  const match = LITERAL_MARKER.exec(text);
  if (!match) return [];
  const around = text.slice(Math.max(0, match.index - 40), match.index + 40).replace(/\s+/g, ' ');
  return [`${where}: literal emphasis markers in "${around}"`];
}

/**
 * The Markdown's tables as a reader sees them: a table inside a table's cell is part of that cell's text (as
 * every output writes it), not a table of its own.
 */
export function documentTables(markdown: string): Table[] {
  let depth = 0;
  const flattened = markdown.replace(
    /<(\/?)(table|tr|td|th|thead|tbody|tfoot)\b[^>]*>/gi,
    (tag: string, slash: string, name: string, offset: number) => {
      const isTable = name.toLowerCase() === 'table';
      // An outer table opens an HTML block, at the start of a line; `<table name>` in a sentence is text.
      if (
        isTable &&
        slash === '' &&
        depth === 0 &&
        !/(?:^|\n)[ \t]*$/.test(markdown.slice(Math.max(0, offset - 200), offset))
      ) {
        return tag;
      }
      if (isTable && slash === '') depth++;
      const nested = depth > 1;
      if (isTable && slash === '/' && depth > 0) depth--;
      return nested ? ' ' : tag;
    },
  );
  return parseMarkdownTables(flattened);
}

// ---- XLSX, read with ExcelJS ------------------------------------------------------------------

/** The sheets of each workbook that hold no table: their names are reserved, a table named so gets "Text (2)". */
const SHEETS_WITHOUT_TABLES: Record<'xlsx_basic' | 'xlsx_advanced', Set<string>> = {
  xlsx_basic: new Set(['Text']),
  xlsx_advanced: new Set(['Text', 'Contents', 'Mapped']),
};

/**
 * Reads a workbook: body cells that print as numbers or dates must hold numbers and dates (identifier columns
 * excepted), no cell shows `**`, every formula's `SUM` equals the value it caches (the printed total), and for
 * XLSX Basic every table of the Markdown is on a sheet of its own with its cells.
 */
export async function readWorkbookOutput(
  bytes: Buffer,
  format: 'xlsx_basic' | 'xlsx_advanced',
  markdownTables: Table[],
): Promise<OutputReading> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const reading: OutputReading = { problems: [], numbers: 0, dates: 0, formulas: 0 };
  const sheetCounts: number[] = [];
  for (const sheet of workbook.worksheets) {
    const tableSheet = !SHEETS_WITHOUT_TABLES[format].has(sheet.name);
    const headerRows = (sheet.views?.[0] as { ySplit?: number } | undefined)?.ySplit ?? 0;
    const headers = new Map<number, string>();
    let cells = 0;
    sheet.eachRow((row, rowNumber) => {
      row.eachCell((cell, column) => {
        if (cell.isMerged && cell.master !== cell) return;
        const value = cell.value;
        if (value === null || value === '') return;
        cells++;
        const where = `${format} '${sheet.name}'!${cell.address}`;
        if (rowNumber <= headerRows) headers.set(column, String(cell.text));
        if (typeof value === 'number') reading.numbers++;
        if (value instanceof Date) reading.dates++;
        if (typeof value === 'object' && value !== null && 'formula' in value) {
          reading.formulas++;
          reading.problems.push(...formulaProblems(sheet, value.formula ?? '', value.result, where));
        }
        if (typeof value !== 'string') return;
        reading.problems.push(...literalMarkers(value, where));
        if (!tableSheet || rowNumber <= headerRows || IDENTIFIER_HEADER.test(headers.get(column) ?? '')) return;
        if (NUMBER.test(value.trim())) reading.problems.push(`${where}: the number "${value}" is stored as text`);
        if (DATE.test(value.trim())) reading.problems.push(`${where}: the date "${value}" is stored as text`);
      });
    });
    if (tableSheet) sheetCounts.push(cells);
  }
  if (format === 'xlsx_basic') {
    const wanted = tableCellCounts(markdownTables);
    const found = sheetCounts.filter((count) => count > 0).sort((a, b) => a - b);
    if (JSON.stringify(found) !== JSON.stringify(wanted)) {
      reading.problems.push(
        `xlsx_basic: table sheets hold ${JSON.stringify(found)} cells, the Markdown's tables ${JSON.stringify(wanted)}`,
      );
    }
  }
  return reading;
}

/** A `SUM(B2:B4,B7)` evaluated over the sheet's own cells must equal the result it caches. */
function formulaProblems(sheet: ExcelJS.Worksheet, formula: string, result: unknown, where: string): string[] {
  const match = /^SUM\(([A-Z]+\d+(?::[A-Z]+\d+)?(?:,[A-Z]+\d+(?::[A-Z]+\d+)?)*)\)$/.exec(formula);
  if (!match) return [`${where}: a formula other than SUM: ${formula}`];
  let sum = 0;
  for (const part of match[1].split(',')) {
    const [from, to = from] = part.split(':');
    const column = from.replace(/\d+/g, '');
    for (let row = Number(from.replace(/\D+/g, '')); row <= Number(to.replace(/\D+/g, '')); row++) {
      const value = sheet.getCell(`${column}${row}`).value;
      if (typeof value === 'number') sum += value;
    }
  }
  const printed = typeof result === 'number' ? result : NaN;
  return Math.abs(sum - printed) <= 1e-6 * Math.max(1, Math.abs(printed))
    ? []
    : [`${where}: ${formula} is ${sum}, the document prints ${String(result)}`];
}

// ---- DOCX, read with mammoth ------------------------------------------------------------------

/** Reads a Word file with mammoth: no `**` in its text, every table of the Markdown with its cells. */
export async function readDocxOutput(bytes: Buffer, markdownTables: Table[]): Promise<OutputReading> {
  const reading: OutputReading = { problems: [], numbers: 0, dates: 0, formulas: 0 };
  const text = (await mammoth.extractRawText({ buffer: bytes })).value;
  reading.problems.push(...literalMarkers(text, 'docx'));
  const html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  const found = tableCellCounts(parseHtmlTables(html));
  const wanted = tableCellCounts(markdownTables);
  if (JSON.stringify(found) !== JSON.stringify(wanted)) {
    reading.problems.push(`docx: tables hold ${JSON.stringify(found)} cells, the Markdown's ${JSON.stringify(wanted)}`);
  }
  return reading;
}

// ---- PPTX, read from its slide XML ----------------------------------------------------------

/** Reads a deck's slides: no `**` in any text, and at least as many slide tables as the Markdown has tables. */
export async function readPptxOutput(bytes: Buffer, markdownTables: Table[]): Promise<OutputReading> {
  const reading: OutputReading = { problems: [], numbers: 0, dates: 0, formulas: 0 };
  const entries = await zipEntries(bytes);
  let tables = 0;
  let slides = 0;
  for (const [name, xml] of entries) {
    if (!/^ppt\/slides\/slide\d+\.xml$/.test(name)) continue;
    slides++;
    const text = xml.toString('utf8');
    tables += text.match(/<a:tbl>/g)?.length ?? 0;
    const runs = [...text.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join(' ');
    reading.problems.push(...literalMarkers(runs, `pptx ${name}`));
    if (runs.trim() === '' && !text.includes('<p:pic>')) reading.problems.push(`pptx ${name}: an empty slide`);
  }
  const wanted = tableCellCounts(markdownTables).length;
  if (tables < wanted) reading.problems.push(`pptx: ${tables} slide tables for the Markdown's ${wanted} tables`);
  if (slides === 0) reading.problems.push('pptx: no slides');
  return reading;
}

// ---- HWPX, read with the project's own reader ---------------------------------------------------

/** Reads an HWPX with our own extractor: no `**` in its text, every table of the Markdown with its cells. */
export async function readHwpxOutput(path: string, markdownTables: Table[]): Promise<OutputReading> {
  const reading: OutputReading = { problems: [], numbers: 0, dates: 0, formulas: 0 };
  const markdown = writeMarkdown(await extractHwpx(path, 'result.hwpx'));
  // The extractor writes bold as `**`: markers a CommonMark parser leaves as text are what must not be there.
  const literal = hygiene(markdown).examples.literalEmphasis ?? [];
  reading.problems.push(...literal.map((example) => `hwpx: literal emphasis markers in ${JSON.stringify(example)}`));
  const found = tableCellCounts(parseMarkdownTables(markdown));
  const wanted = tableCellCounts(markdownTables);
  if (JSON.stringify(found) !== JSON.stringify(wanted)) {
    reading.problems.push(`hwpx: tables hold ${JSON.stringify(found)} cells, the Markdown's ${JSON.stringify(wanted)}`);
  }
  return reading;
}

/**
 * An independent HWPX reader, @ssabrojs/hwpxjs (an ES module, so it runs in a child Node process): the title in
 * every file's package metadata and the text of its paragraphs, by path. It reads paragraphs, not tables.
 */
export function independentHwpxText(paths: string[], cwd: string): Record<string, { title: string; text: string }> {
  const script = `
import { HwpxReader } from '@ssabrojs/hwpxjs';
import { readFileSync } from 'node:fs';
const texts = {};
for (const path of process.argv.slice(1)) {
  const bytes = readFileSync(path);
  const reader = new HwpxReader();
  await reader.loadFromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const info = await reader.getDocumentInfo();
  texts[path] = { title: info.metadata.title ?? '', text: await reader.extractText() };
}
process.stdout.write(JSON.stringify(texts));
`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, ...paths], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(output) as Record<string, { title: string; text: string }>;
}

/**
 * Opens files with LibreOffice headless, all of one kind in one start of it, converting each to PDF: the
 * names of the files it produced no PDF for.
 */
export async function libreOfficeRefuses(folder: string, files: { name: string; bytes: Buffer }[]): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  for (const file of files) await writeFile(join(folder, file.name), file.bytes);
  const profile = `file://${join(folder, 'lo-profile')}`;
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--convert-to',
      'pdf',
      '--outdir',
      join(folder, 'pdf'),
      ...files.map((file) => join(folder, file.name)),
    ],
    { stdio: 'ignore', timeout: 900_000 },
  );
  return files
    .map((file) => file.name)
    .filter((name) => !existsSync(join(folder, 'pdf', name.replace(/\.[^.]+$/, '.pdf'))));
}
