import { DomainError } from '@docconv/contracts';
import iconv from 'iconv-lite';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Cell, Document } from '@docconv/model';
import { lineContent } from '../text/extract-text';
import { readStart } from '../file-start';
import { cleanText, decodeWith, detectTextEncoding, TEXT_SAMPLE_BYTES, type TextEncoding } from '../text/decode-text';
import { CsvGrid } from './csv-grid';
import { CsvScanner } from './csv-scanner';
import { declaredDelimiter, sniffDelimiter } from './sniff-delimiter';

export { sniffDelimiter } from './sniff-delimiter';

/**
 * The document of a CSV or TSV file: one table, the first record its header row, as docling writes
 * it. No heading: a job of several files puts the file's name above it already.
 *
 * The encoding is found as for plain text (`detectTextEncoding`: UTF-8 or UTF-16 with or without
 * a byte order mark, CP949, Shift-JIS…); the delimiter is `delimiter` (a TSV's tab), the one an
 * Excel `sep=` first line declares, or the one `sniffDelimiter` finds. Rows shorter than the
 * widest are padded with empty cells, so a header with too few names, or a row with too many
 * fields, keeps every value in a column. A line break inside a quoted field is a `<br>` in its
 * cell. The table is held to the limits `inspectCsv` checks.
 */
export async function extractCsv(path: string, displayName: string, delimiter?: string): Promise<Document> {
  const bytes = await readFile(path);
  const dialect = csvDialect(bytes, displayName, delimiter);
  const grid = new CsvGrid(displayName, true, dialect.skip);
  const scanner = new CsvScanner(dialect.delimiter, grid);
  scanner.write(decodeWith(bytes.subarray(dialect.bomLength), dialect.encoding));
  scanner.end();
  return csvDocument(grid.rows, displayName);
}

/**
 * The size of a CSV or TSV table, read as a stream without keeping its text, and refused with
 * `payload_too_large` as soon as it has more than 16,384 columns or 1,048,576 rows (Excel's
 * limits) or more than 2,000,000 cells; `unsupported_format` when the file is not text.
 */
export async function inspectCsv(
  path: string,
  displayName: string,
  delimiter?: string,
): Promise<{ rows: number; columns: number }> {
  const dialect = csvDialect(await readStart(path, TEXT_SAMPLE_BYTES), displayName, delimiter);
  const grid = new CsvGrid(displayName, false, dialect.skip);
  const scanner = new CsvScanner(dialect.delimiter, grid, false);
  const decoder = iconv.getDecoder(dialect.encoding, { stripBOM: false });
  const stream = createReadStream(path, { start: dialect.bomLength, highWaterMark: TEXT_SAMPLE_BYTES });
  try {
    for await (const chunk of stream) scanner.write(decoder.write(chunk as Buffer));
    scanner.write(decoder.end() ?? '');
    scanner.end();
  } finally {
    stream.destroy();
  }
  return { rows: grid.count, columns: grid.width };
}

/** How a CSV file is read: its encoding, the byte order mark to skip, the delimiter and records to skip. */
interface CsvDialect {
  encoding: string;
  bomLength: number;
  delimiter: string;
  /** 1 when the first line is Excel's `sep=` declaration, which is no data. */
  skip: number;
}

/** The dialect of a CSV from its first bytes (`sample`, or more), or `unsupported_format`. */
function csvDialect(sample: Buffer, displayName: string, delimiter: string | undefined): CsvDialect {
  const found = detectTextEncoding(sample);
  if (!found) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} is not readable text: it holds binary data, or text in an encoding that could not be recognised. Save it as CSV (UTF-8) and upload it again.`,
    );
  }
  const start = startOfText(sample, found);
  const declared = declaredDelimiter(start);
  return {
    ...found,
    delimiter: delimiter ?? declared ?? sniffDelimiter(start),
    skip: declared !== undefined && delimiter === undefined ? 1 : 0,
  };
}

/** The text of a file's first 64 KiB; when the file goes on, up to the last line break (whole records, whole characters). */
function startOfText(bytes: Buffer, { encoding, bomLength }: TextEncoding): string {
  const text = decodeWith(bytes.subarray(bomLength, TEXT_SAMPLE_BYTES), encoding);
  if (bytes.length < TEXT_SAMPLE_BYTES) return text;
  const end = text.lastIndexOf('\n');
  return end > 0 ? text.slice(0, end + 1) : text;
}

/**
 * Records as a document of one table (none when there are no records), its first record the
 * header row; each field plain text, control characters dropped. Short rows are padded to the
 * widest by the Markdown writer; a line break in a field is a break in its cell.
 */
export function csvDocument(records: string[][], file: string): Document {
  if (records.length === 0) return { version: 1, blocks: [] };
  const rows = records.map((record) =>
    record.map((text): Cell => ({ content: lineContent(cleanText(text)), rowspan: 1, colspan: 1 })),
  );
  return { version: 1, blocks: [{ type: 'table', rows, headerRows: 1, from: { file } }] };
}
