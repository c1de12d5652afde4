/**
 * The fidelity scorer's report: per-item records, their aggregation per format, and the plain
 * text tables printed at the end of a run. Scores against docling snapshots and scores against
 * independent references are kept apart everywhere.
 */
import type { CheckOutcome, TestOutcome } from './olmocr';

/** Where a reference comes from: a peer tool's snapshot, or something nobody tuned a converter to. */
export type ReferenceGroup = 'docling' | 'independent';

export const METRICS = ['similarity', 'teds', 'tests', 'checks', 'wer', 'cer'] as const;
export type MetricName = (typeof METRICS)[number];

export type ItemMetrics = Partial<Record<MetricName, number>>;

export type ItemStatus = 'scored' | 'failed' | 'skipped';

export interface ItemReport {
  /** Relative to the set: `<format>/<name>.<ext>`. */
  path: string;
  format: string;
  kind?: string;
  mime?: string;
  status: ItemStatus;
  /** The extraction error (failed), why it was not scored (skipped), and problems reading references. */
  errors: string[];
  /** Reference files found for the input, relative to the set. */
  references: string[];
  metrics: Record<ReferenceGroup, ItemMetrics>;
  /** Seconds spent extracting (detection, inspection, conversion) and in total with scoring. */
  extractSeconds: number;
  seconds: number;
  details?: {
    tables?: Partial<Record<ReferenceGroup, { scores: number[]; predicted: number; exact: boolean }>>;
    tests?: TestOutcome[];
    checks?: CheckOutcome[];
  };
}

export interface SummaryRow {
  /** A format, or `all`. */
  format: string;
  group: ReferenceGroup;
  metric: MetricName;
  items: number;
  mean: number;
  min: number;
  max: number;
}

/** What each metric is measured against, per group, as printed. */
export const METRIC_LABELS: Record<ReferenceGroup, Record<MetricName, string>> = {
  docling: {
    similarity: 'text similarity (.ref.md)',
    teds: 'TEDS (.ref.json / .ref.html)',
    tests: 'unit tests pass rate',
    checks: 'string checks pass rate',
    wer: 'WER (lower is better)',
    cer: 'CER (lower is better)',
  },
  independent: {
    similarity: 'text similarity (.ref.txt)',
    teds: 'TEDS (Hancom .ref.html)',
    tests: 'olmOCR tests pass rate',
    checks: 'string checks pass rate',
    wer: 'WER (lower is better)',
    cer: 'CER (lower is better)',
  },
};

const GROUPS: ReferenceGroup[] = ['docling', 'independent'];

/** Items, mean, min and max of every metric, per format (in order of first appearance) and over `all`. */
export function summarise(items: ItemReport[]): SummaryRow[] {
  const formats = [...new Set(items.map((i) => i.format)), 'all'];
  const rows: SummaryRow[] = [];
  for (const format of formats) {
    const chosen = items.filter((i) => format === 'all' || i.format === format);
    for (const group of GROUPS) {
      for (const metric of METRICS) {
        const values = chosen
          .map((i) => i.metrics[group][metric])
          .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
        if (values.length === 0) continue;
        rows.push({
          format,
          group,
          metric,
          items: values.length,
          mean: values.reduce((s, v) => s + v, 0) / values.length,
          min: values.reduce((a, b) => Math.min(a, b)),
          max: values.reduce((a, b) => Math.max(a, b)),
        });
      }
    }
  }
  return rows;
}

function counts(items: ItemReport[]): string {
  const n = (status: ItemStatus): number => items.filter((i) => i.status === status).length;
  return `${items.length} input${items.length === 1 ? '' : 's'}: ${n('scored')} scored, ${n('failed')} failed, ${n('skipped')} skipped`;
}

function grid(header: string[], rows: string[][], numeric: boolean[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const fixed = (v: number): string => v.toFixed(3);

/** One table per format and one over all formats: reference group, metric, items, mean, min, max. */
export function formatSummary(items: ItemReport[], summary: SummaryRow[]): string {
  const formats = [...new Set(items.map((i) => i.format)), 'all'];
  const blocks: string[] = [];
  for (const format of formats) {
    const chosen = items.filter((i) => format === 'all' || i.format === format);
    const rows = summary.filter((r) => r.format === format);
    const title = `${format === 'all' ? 'ALL FORMATS' : format} (${counts(chosen)})`;
    if (rows.length === 0) {
      blocks.push(`${title}\n  nothing scored`);
      continue;
    }
    const table = grid(
      ['reference', 'metric', 'items', 'mean', 'min', 'max'],
      rows.map((r) => [
        r.group,
        METRIC_LABELS[r.group][r.metric],
        String(r.items),
        fixed(r.mean),
        fixed(r.min),
        fixed(r.max),
      ]),
      [false, false, true, true, true, true],
    );
    blocks.push(`${title}\n${table.replace(/^/gm, '  ')}`);
  }
  return blocks.join('\n\n');
}

const SHORT: Record<MetricName, string> = {
  similarity: 'sim',
  teds: 'teds',
  tests: 'tests',
  checks: 'checks',
  wer: 'wer',
  cer: 'cer',
};

/** One line per item: path, status, seconds, its scores (d: docling, i: independent), and its first error. */
export function formatItems(items: ItemReport[]): string {
  const rows = items.map((item) => {
    const scores = GROUPS.flatMap((group) =>
      METRICS.filter((m) => item.metrics[group][m] !== undefined).map(
        (m) => `${SHORT[m]}(${group[0]})=${fixed(item.metrics[group][m]!)}`,
      ),
    ).join(' ');
    const note = item.errors[0] ? oneLine(item.errors[0], 100) : '';
    return [item.path, item.status, `${item.seconds.toFixed(2)}s`, scores, note];
  });
  return grid(['input', 'status', 'time', 'scores (d = docling, i = independent)', 'note'], rows, [
    false,
    false,
    true,
    false,
    false,
  ]);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
