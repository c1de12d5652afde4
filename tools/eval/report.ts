/**
 * The fidelity scorer's report: per-item records, their aggregation per format, and the plain
 * text tables printed at the end of a run. Scores against docling snapshots and scores against
 * independent references are kept apart everywhere; hygiene counts need no reference and stand
 * on their own.
 */
import type { HeadingScore } from './headings';
import { HYGIENE_KINDS, type Hygiene, type HygieneKind } from './hygiene';
import type { NumberingScore } from './numbering';
import type { CheckOutcome, TestOutcome } from './olmocr';
import type { StructureExactness, TableScores } from './tables';
import { fixed, grid } from './text-grid';

/** Where a reference comes from: a peer tool's snapshot, or something nobody tuned a converter to. */
export type ReferenceGroup = 'docling' | 'independent';

export const METRICS = [
  'similarity',
  'spacing',
  'nid',
  'visualSimilarity',
  'visualSpacing',
  'visualNid',
  'headings',
  'teds',
  'tableExact',
  'cellF1',
  'adjacencyF1',
  'tableRecall',
  'tablePrecision',
  'numbering',
  'tests',
  'checks',
  'wer',
  'cer',
  'articleKept',
  'siteGone',
] as const;
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
  /** Defects of the output itself; absent when there is no output. */
  hygiene?: Hygiene;
  /** Seconds spent extracting (detection, inspection, conversion) and in total with scoring. */
  extractSeconds: number;
  seconds: number;
  /** The pages read whole by OCR: their confidence (characters' mean over the pages), seconds each, low-confidence ones. */
  ocr?: OcrSummary;
  details?: {
    /**
     * Per group: each reference table's TEDS, how many tables the output has, whether TEDS was
     * computed exactly (not by row alignment), and which reference tables the output matches exactly.
     */
    tables?: Partial<
      Record<
        ReferenceGroup,
        {
          scores: number[];
          predicted: number;
          exact: boolean;
          structure?: StructureExactness;
          /** The tables as a reader meets them: cell content, adjacency, TEDS, grid and detection (scoreTables). */
          read?: TableScores;
        }
      >
    >;
    /** The outline and list labels of the reference and of the output, per group. */
    numbering?: Partial<Record<ReferenceGroup, NumberingScore>>;
    /** The heading structure against the `.ref.md`. */
    headings?: HeadingScore;
    tests?: TestOutcome[];
    checks?: CheckOutcome[];
  };
}

/** How the OCR'd pages of one input were read. */
export interface OcrSummary {
  pages: number;
  /** Mean of the pages' confidences, 0…100. */
  confidence: number;
  /** Seconds each page took. */
  seconds: number[];
  lowConfidence: number;
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

/** A whole web page read as its article, against the page's own markup (web-pages.ts): one label in either group. */
const WEB_PAGE_LABELS = {
  articleKept: "web page's article paragraphs kept (html_content=main)",
  siteGone: "web page's site items gone (html_content=main)",
};

/** What each metric is measured against, per group, as printed. */
export const METRIC_LABELS: Record<ReferenceGroup, Record<MetricName, string>> = {
  docling: {
    similarity: 'text similarity (.ref.md)',
    spacing: 'Korean word spacing F1 (.ref.md)',
    nid: 'reading order NID (.ref.md)',
    visualSimilarity: 'text similarity (visual order)',
    visualSpacing: 'Korean word spacing F1 (visual order)',
    visualNid: 'reading order NID (visual order)',
    headings: 'heading structure (.ref.md)',
    teds: 'TEDS (.ref.json / .ref.html)',
    tableExact: 'table structure exact (.ref.json / .ref.html)',
    cellF1: 'table cell-content F1 (.ref.json / .ref.html)',
    adjacencyF1: 'table cell-adjacency F1 (.ref.json / .ref.html)',
    tableRecall: 'table detection recall (.ref.json / .ref.html)',
    tablePrecision: 'table detection precision (.ref.json / .ref.html)',
    numbering: 'numbering F1 (.ref.md)',
    tests: 'unit tests pass rate',
    checks: 'string checks pass rate',
    wer: 'WER (lower is better)',
    cer: 'CER (lower is better)',
    articleKept: WEB_PAGE_LABELS.articleKept,
    siteGone: WEB_PAGE_LABELS.siteGone,
  },
  independent: {
    similarity: 'text similarity (.ref.txt)',
    spacing: 'Korean word spacing F1 (.ref.txt)',
    nid: 'reading order NID (.ref.txt)',
    visualSimilarity: 'text similarity (Hancom .ref.html, visual order)',
    visualSpacing: 'Korean word spacing F1 (Hancom .ref.html, visual order)',
    visualNid: 'reading order NID (Hancom .ref.html, visual order)',
    headings: 'heading structure',
    teds: 'TEDS (Hancom or tables-only .ref.html)',
    tableExact: 'table structure exact (Hancom or tables-only .ref.html)',
    cellF1: 'table cell-content F1 (Hancom or tables-only .ref.html)',
    adjacencyF1: 'table cell-adjacency F1 (Hancom or tables-only .ref.html)',
    tableRecall: 'table detection recall (Hancom or tables-only .ref.html)',
    tablePrecision: 'table detection precision (Hancom or tables-only .ref.html)',
    numbering: 'numbering F1 (Hancom visual order, else .ref.txt)',
    tests: 'olmOCR tests pass rate',
    checks: 'string checks pass rate',
    wer: 'WER (lower is better)',
    cer: 'CER (lower is better)',
    articleKept: WEB_PAGE_LABELS.articleKept,
    siteGone: WEB_PAGE_LABELS.siteGone,
  },
};

export const GROUPS: ReferenceGroup[] = ['docling', 'independent'];

/** One hygiene count over the outputs of a format: its total, and its mean, least and most per output. */
export interface HygieneRow {
  /** A format, or `all`. */
  format: string;
  kind: HygieneKind;
  /** Outputs counted: items that produced Markdown. */
  items: number;
  total: number;
  mean: number;
  min: number;
  max: number;
}

/** What each hygiene count is, as printed. */
export const HYGIENE_LABELS: Record<HygieneKind, string> = {
  controlCharacters: 'control characters',
  replacementCharacters: 'U+FFFD replacement characters',
  privateUse: 'private-use characters',
  literalEmphasis: 'literal emphasis markers',
  pageNumberLines: 'page-number lines',
};

/**
 * Items, mean, min and max of every metric, per format (in order of first appearance) and over
 * `all`. The mean of table structure exactness is the share of all the reference tables that
 * count (see structureExactness) matched exactly, not the mean of the items' shares; min and max
 * are the items' shares.
 */
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
        const structures = chosen.flatMap((i) => i.details?.tables?.[group]?.structure ?? []);
        const counted = structures.reduce((s, x) => s + x.counted, 0);
        rows.push({
          format,
          group,
          metric,
          items: values.length,
          mean:
            metric === 'tableExact' && counted > 0
              ? structures.reduce((s, x) => s + x.matched, 0) / counted
              : values.reduce((s, v) => s + v, 0) / values.length,
          min: values.reduce((a, b) => Math.min(a, b)),
          max: values.reduce((a, b) => Math.max(a, b)),
        });
      }
    }
  }
  return rows;
}

/** Every hygiene count summed per format (in order of first appearance) and over `all`, zero totals included. */
export function summariseHygiene(items: ItemReport[]): HygieneRow[] {
  const formats = [...new Set(items.map((i) => i.format)), 'all'];
  const rows: HygieneRow[] = [];
  for (const format of formats) {
    const chosen = items.filter((i) => (format === 'all' || i.format === format) && i.hygiene !== undefined);
    if (chosen.length === 0) continue;
    for (const kind of HYGIENE_KINDS) {
      const values = chosen.map((i) => i.hygiene!.counts[kind]);
      const total = values.reduce((s, v) => s + v, 0);
      rows.push({
        format,
        kind,
        items: values.length,
        total,
        mean: total / values.length,
        min: Math.min(...values),
        max: Math.max(...values),
      });
    }
  }
  return rows;
}

function counts(items: ItemReport[]): string {
  const n = (status: ItemStatus): number => items.filter((i) => i.status === status).length;
  return `${items.length} input${items.length === 1 ? '' : 's'}: ${n('scored')} scored, ${n('failed')} failed, ${n('skipped')} skipped`;
}

/**
 * One table per format and one over all formats: per reference group and metric its items,
 * mean, min and max; then the hygiene counts of the outputs (reference `output`), per output
 * and in total.
 */
export function formatSummary(items: ItemReport[], summary: SummaryRow[], hygiene: HygieneRow[]): string {
  const formats = [...new Set(items.map((i) => i.format)), 'all'];
  const blocks: string[] = [];
  for (const format of formats) {
    const chosen = items.filter((i) => format === 'all' || i.format === format);
    const rows = summary.filter((r) => r.format === format);
    const hygieneRows = hygiene.filter((r) => r.format === format);
    const title = `${format === 'all' ? 'ALL FORMATS' : format} (${counts(chosen)})`;
    if (rows.length === 0 && hygieneRows.length === 0) {
      blocks.push(`${title}\n  nothing scored`);
      continue;
    }
    const table = grid(
      ['reference', 'metric', 'items', 'mean', 'min', 'max', 'total'],
      [
        ...rows.map((r) => [
          r.group,
          METRIC_LABELS[r.group][r.metric],
          String(r.items),
          fixed(r.mean),
          fixed(r.min),
          fixed(r.max),
          '',
        ]),
        ...hygieneRows.map((r) => [
          'output',
          HYGIENE_LABELS[r.kind],
          String(r.items),
          fixed(r.mean),
          String(r.min),
          String(r.max),
          String(r.total),
        ]),
      ],
      [false, false, true, true, true, true, true],
    );
    blocks.push(`${title}\n${table.replace(/^/gm, '  ')}`);
  }
  return blocks.join('\n\n');
}

const SHORT: Record<MetricName, string> = {
  similarity: 'sim',
  spacing: 'space',
  nid: 'nid',
  visualSimilarity: 'vsim',
  visualSpacing: 'vspace',
  visualNid: 'vnid',
  headings: 'head',
  teds: 'teds',
  tableExact: 'texact',
  cellF1: 'cellf1',
  adjacencyF1: 'adjf1',
  tableRecall: 'trecall',
  tablePrecision: 'tprec',
  numbering: 'num',
  tests: 'tests',
  checks: 'checks',
  wer: 'wer',
  cer: 'cer',
  articleKept: 'article',
  siteGone: 'sitegone',
};

const SHORT_HYGIENE: Record<HygieneKind, string> = {
  controlCharacters: 'ctrl',
  replacementCharacters: 'fffd',
  privateUse: 'pua',
  literalEmphasis: 'emph',
  pageNumberLines: 'pageno',
};

/**
 * One line per item: path, status, seconds, its scores (d: docling, i: independent) followed by
 * its non-zero hygiene counts, and its first error.
 */
export function formatItems(items: ItemReport[]): string {
  const rows = items.map((item) => {
    const scores = [
      ...GROUPS.flatMap((group) =>
        METRICS.filter((m) => item.metrics[group][m] !== undefined).map(
          (m) => `${SHORT[m]}(${group[0]})=${fixed(item.metrics[group][m]!)}`,
        ),
      ),
      ...HYGIENE_KINDS.filter((k) => (item.hygiene?.counts[k] ?? 0) > 0).map(
        (k) => `${SHORT_HYGIENE[k]}=${item.hygiene!.counts[k]}`,
      ),
    ].join(' ');
    const note = item.errors[0] ? oneLine(item.errors[0], 100) : '';
    return [item.path, item.status, `${item.seconds.toFixed(2)}s`, scores, note];
  });
  return grid(['input', 'status', 'time', 'scores (d = docling, i = independent) and hygiene', 'note'], rows, [
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
