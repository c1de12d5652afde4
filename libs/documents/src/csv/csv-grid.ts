import { DomainError } from '@docconv/contracts';
import type { CsvHandler } from './csv-scanner';

/** The most columns a table may have: Excel's sheet limit. */
export const MAX_CSV_COLUMNS = 16_384;

/** The most rows a table may have: Excel's sheet limit. */
export const MAX_CSV_ROWS = 1_048_576;

/** The most cells (rows × the widest row's columns) a table may have, which bounds the Markdown written. */
export const MAX_CSV_CELLS = 2_000_000;

/**
 * The records of a CSV, held to the limits as they are read, so an oversized file is refused at
 * the field or row that crosses a limit, before more of it is read or kept. With `keepText`
 * false only the counts are kept.
 */
export class CsvGrid implements CsvHandler {
  /** Each record's fields (with `keepText`). */
  readonly rows: string[][] = [];
  /** Records read. */
  count = 0;
  /** Fields in the widest record. */
  width = 0;
  private current: string[] = [];
  private skip: number;

  /** `skip`: records to leave out at the start (Excel's `sep=;` line). */
  constructor(
    private readonly displayName: string,
    private readonly keepText: boolean,
    skip = 0,
  ) {
    this.skip = skip;
  }

  field(text: string, index: number): void {
    if (index >= MAX_CSV_COLUMNS) {
      throw tooLarge(
        `${this.displayName} has more than ${format(MAX_CSV_COLUMNS)} columns in row ${format(this.count + 1)}; the limit is ${format(MAX_CSV_COLUMNS)} columns, as in Excel.`,
      );
    }
    if (this.keepText && this.skip === 0) this.current.push(text);
  }

  record(fields: number): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    this.count++;
    this.width = Math.max(this.width, fields);
    if (this.count > MAX_CSV_ROWS) {
      throw tooLarge(
        `${this.displayName} has more than ${format(MAX_CSV_ROWS)} rows; the limit is ${format(MAX_CSV_ROWS)} rows, as in Excel.`,
      );
    }
    if (this.count * this.width > MAX_CSV_CELLS) {
      throw tooLarge(
        `${this.displayName} has ${format(this.count)} rows of up to ${format(this.width)} columns, more than ${format(MAX_CSV_CELLS)} cells; the limit is ${format(MAX_CSV_CELLS)} cells.`,
      );
    }
    if (this.keepText) this.rows.push(this.current);
    this.current = [];
  }
}

function tooLarge(what: string): DomainError {
  return new DomainError('payload_too_large', `${what} Split it into smaller files and upload them again.`);
}

function format(n: number): string {
  return n.toLocaleString('en-US');
}
