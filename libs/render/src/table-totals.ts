import type { TypedValue } from './typed-value';

/** The label of a totals row, in its first text cell: "Total", "Grand total", "Subtotal", "Sum", 합계, 총계, 소계, 계. */
const TOTAL_LABEL = /^(?:grand\s+)?(?:sub-?\s?)?totals?\b|^sum$|^합\s*계$|^총\s*계$|^총\s*합\s*계?$|^소\s*계$|^계$/iu;
const SUBTOTAL_LABEL = /^sub-?\s?totals?\b|^소\s*계$/iu;

/** One body row of a table as written to its sheet: its row number there and its typed cells. */
export interface SheetRow {
  sheetRow: number;
  cells: (string | TypedValue)[];
}

/** A printed total written as a formula whose value equals it. */
export interface TotalFormula {
  row: number;
  column: number;
  formula: string;
  result: number;
}

/** A printed total that none of the sums of the rows above equals. */
export interface TotalMismatch {
  row: number;
  column: number;
  printed: number;
  /** What the rows it most plausibly totals add up to: a total's rows since the last total, a subtotal's since the last totals row. */
  summed: number;
}

export interface TotalsCheck {
  formulas: TotalFormula[];
  mismatches: TotalMismatch[];
}

/**
 * Finds totals rows (labelled "Total", 합계, "Subtotal", …) and, for each number in them, the rows above that add
 * up to it: for a total, the detail rows since the previous total, or the rows since the previous totals row of
 * any kind, or the subtotals; for a subtotal, the rows since the previous totals row.
 * The first that equals the printed figure (to the precision it is printed with) becomes a `SUM` formula; a
 * figure none of them equals is reported, and the printed value stays as it was.
 */
export function checkTotals(rows: SheetRow[]): TotalsCheck {
  const check: TotalsCheck = { formulas: [], mismatches: [] };
  rows.forEach((row, index) => {
    const kind = totalKind(row);
    if (!kind) return;
    const above = rows.slice(0, index);
    const sinceLast = above.slice(above.findLastIndex((candidate) => totalKind(candidate) !== null) + 1);
    const section = above.slice(above.findLastIndex((candidate) => totalKind(candidate) === 'total') + 1);
    const details = section.filter((candidate) => totalKind(candidate) === null);
    const subtotals = section.filter((candidate) => totalKind(candidate) === 'subtotal');
    // A subtotal adds the rows since the last total of any kind; a total may also add every row of its section, or its subtotals.
    const groups = kind === 'total' ? [details, sinceLast, subtotals] : [sinceLast];
    row.cells.forEach((cell, column) => {
      if (typeof cell === 'string' || typeof cell.value !== 'number') return;
      const printed = cell.value;
      const tolerance = printedPrecision(cell) / 2 + 1e-9 * Math.max(1, Math.abs(printed));
      const sums = groups.map((group) => ({ group, sum: columnSum(group, column) }));
      const match = sums.find(({ sum }) => sum !== null && Math.abs(sum - printed) <= tolerance);
      if (match) {
        check.formulas.push({ row: row.sheetRow, column, formula: sumFormula(match.group, column), result: printed });
      } else if (sums[0].sum !== null) {
        check.mismatches.push({ row: row.sheetRow, column, printed, summed: sums[0].sum });
      }
    });
  });
  return check;
}

function totalKind(row: SheetRow): 'total' | 'subtotal' | null {
  const label = row.cells.map(textOf).find((text) => text !== null && text.trim() !== '');
  if (!label || !TOTAL_LABEL.test(label.trim())) return null;
  return SUBTOTAL_LABEL.test(label.trim()) ? 'subtotal' : 'total';
}

function textOf(cell: string | TypedValue): string | null {
  if (typeof cell === 'string') return cell;
  return typeof cell.value === 'string' ? cell.value : null;
}

/** The sum of the numbers in a column over some rows; null when none of them has a number there. */
function columnSum(rows: SheetRow[], column: number): number | null {
  let sum: number | null = null;
  for (const row of rows) {
    const cell = row.cells[column];
    if (cell !== undefined && typeof cell !== 'string' && typeof cell.value === 'number') sum = (sum ?? 0) + cell.value;
  }
  return sum;
}

/** The step of the last digit a number is printed with: 1 for `#,##0`, 0.01 for `0.00`, 0.001 for `0.0%`. */
function printedPrecision(cell: TypedValue): number {
  const format = (cell.numFmt ?? '0').split(';')[0];
  const decimals = /\.(0+)/.exec(format)?.[1].length ?? 0;
  return 10 ** -(decimals + (format.includes('%') ? 2 : 0));
}

/** `SUM(B2:B4,B7)`: the rows holding a number in the column, as ranges of consecutive sheet rows. */
function sumFormula(rows: SheetRow[], column: number): string {
  const letter = columnLetter(column);
  const numbers = rows
    .filter((row) => {
      const cell = row.cells[column];
      return cell !== undefined && typeof cell !== 'string' && typeof cell.value === 'number';
    })
    .map((row) => row.sheetRow);
  const ranges: string[] = [];
  let start = numbers[0];
  for (let i = 1; i <= numbers.length; i++) {
    if (i < numbers.length && numbers[i] === numbers[i - 1] + 1) continue;
    const end = numbers[i - 1];
    ranges.push(start === end ? `${letter}${start}` : `${letter}${start}:${letter}${end}`);
    start = numbers[i];
  }
  return `SUM(${ranges.join(',')})`;
}

/** The spreadsheet letters of a 0-based column index: 0 is A, 26 is AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
