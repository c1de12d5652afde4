/** Plain-text tables for the scorer's printed report: padded columns, numbers right-aligned. */

/** Lays rows out under a header and a rule, each column as wide as its widest cell; numeric columns are right-aligned. */
export function grid(header: string[], rows: string[][], numeric: boolean[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A score as printed: three decimals. */
export const fixed = (v: number): string => v.toFixed(3);
