/** A figure a scenario reports: a name and its value as printed. */
export type Figure = [name: string, value: string | number];

/**
 * Prints a scenario's figures as a two-column table on stdout, so a run of the suite shows
 * what it measured (counts, timings, status codes) beside whether it passed.
 */
export function printFigures(title: string, figures: Figure[]): void {
  const width = Math.max(...figures.map(([name]) => name.length));
  const lines = figures.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`);
  const rule = '-'.repeat(Math.max(title.length, ...lines.map((l) => l.length)));
  process.stdout.write(`\n${title}\n${rule}\n${lines.join('\n')}\n${rule}\n`);
}

/** How many times each outcome occurred, e.g. `{ "200": 37, "503": 12 }`, keys sorted. */
export function histogram(outcomes: readonly (number | string)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[String(outcome)] = (counts[String(outcome)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** A histogram as one line: `200×37 503×12`. */
export function formatHistogram(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '(none)' : entries.map(([outcome, n]) => `${outcome}×${n}`).join(' ');
}

/** The value below which `fraction` of `values` fall (nearest rank); 0 for no values. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** Milliseconds as printed in the tables. */
export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
