import { joined, shows, type Block, type Cell, type Inline, type Provenance } from '@docconv/model';
import { child, childrenNamed, descendants, pathOf, runText, textContent, type XmlNode } from './ooxml';

/*
 * Charts of OOXML parts (DOCX, PPTX, XLSX, and the OOXML charts HWP and HWPX embed): what a chart
 * says as data, and that data as the document's blocks: a title line, then a table of the cached
 * points (categories down, series across).
 */

const CHART_KINDS: Record<string, string> = {
  area: 'Area',
  bar: 'Bar',
  bubble: 'Bubble',
  doughnut: 'Doughnut',
  line: 'Line',
  ofPie: 'Pie',
  pie: 'Pie',
  radar: 'Radar',
  scatter: 'Scatter',
  stock: 'Stock',
  surface: 'Surface',
};

/** A chart as its title, its kind and its cached data. */
export interface Chart {
  /** Empty when the chart has none. */
  title: string;
  /** `Bar`, `Pie`, …; `Combined` for several kinds, `Other` for none known. */
  kind: string;
  /** The data, header row first (an empty corner, then each series' name); none without points. */
  rows: string[][];
}

/** A chart part's title, kind and cached data. */
export function readChart(chart: XmlNode): Chart {
  const space = child(chart, 'chartSpace');
  const plot = pathOf(space, 'chart', 'plotArea');
  const title = chartText(pathOf(space, 'chart', 'title', 'tx'));
  const kinds = new Set<string>();
  const series: { name: string; categories: string[]; values: string[] }[] = [];
  for (const group of plot?.children ?? []) {
    const kind = /^(\w+?)(3D)?Chart$/.exec(group.name)?.[1];
    if (!kind) continue;
    kinds.add(CHART_KINDS[kind] ?? 'Other');
    for (const ser of childrenNamed(group, 'ser')) {
      series.push({
        name: chartText(child(ser, 'tx')),
        categories: chartPoints(child(ser, 'cat') ?? child(ser, 'xVal')),
        values: chartPoints(child(ser, 'val') ?? child(ser, 'yVal')),
      });
    }
  }
  const kind = kinds.size === 1 ? [...kinds][0] : kinds.size > 1 ? 'Combined' : 'Other';
  const length = Math.max(0, ...series.map((s) => Math.max(s.categories.length, s.values.length)));
  const rows: string[][] = [];
  if (series.length > 0 && length > 0) {
    const categories = series.find((s) => s.categories.length > 0)?.categories ?? [];
    rows.push(['', ...series.map((s, i) => s.name || `Series ${i + 1}`)]);
    for (let i = 0; i < length; i++) rows.push([categories[i] ?? '', ...series.map((s) => s.values[i] ?? '')]);
  }
  return { title, kind, rows };
}

/**
 * A chart as blocks: a paragraph naming it (its title in bold and its kind, or its kind in
 * italics), then its data as a table whose first row is the series' names.
 */
export function chartBlocks(chart: Chart, from: Provenance): Block[] {
  const text = (value: string): Inline[] => (value === '' ? [] : [{ kind: 'text', text: value }]);
  const name: Inline[] = chart.title
    ? [
        { kind: 'text', text: chart.title, bold: true },
        { kind: 'text', text: ` (${chart.kind.toLowerCase()} chart)` },
      ]
    : [{ kind: 'text', text: `${chart.kind} chart`, italic: true }];
  const blocks: Block[] = [{ type: 'paragraph', content: name, from }];
  if (chart.rows.length > 0) {
    const cell = (value: string): Cell => ({ content: text(value), rowspan: 1, colspan: 1 });
    blocks.push({ type: 'table', rows: chart.rows.map((row) => row.map(cell)), headerRows: 1, from });
  }
  return blocks;
}

/** Rich text, or the cached value of a cell reference, of a chart title or series name. */
function chartText(tx: XmlNode | undefined): string {
  if (!tx) return '';
  const rich = child(tx, 'rich');
  if (rich)
    return childrenNamed(rich, 'p')
      .map((p) => runText(p).trim())
      .filter(Boolean)
      .join(' ');
  const literal = child(tx, 'v');
  if (literal) return textContent(literal).trim();
  return chartPoints(tx).join(' ').trim();
}

/** The cached points of a data reference or literal, by index. */
function chartPoints(node: XmlNode | undefined): string[] {
  if (!node) return [];
  const cache =
    descendants(node, 'strCache')[0] ??
    descendants(node, 'numCache')[0] ??
    descendants(node, 'strLit')[0] ??
    descendants(node, 'numLit')[0] ??
    descendants(node, 'lvl')[0];
  if (!cache) return [];
  const points: string[] = [];
  const count = Number(child(cache, 'ptCount')?.attrs.val ?? 0);
  for (const pt of childrenNamed(cache, 'pt')) {
    const index = Number(pt.attrs.idx ?? points.length);
    if (Number.isInteger(index) && index >= 0 && index < 1_000_000)
      points[index] = tidyNumber(textContent(child(pt, 'v')));
  }
  for (let i = 0; i < Math.min(count, 1_000_000); i++) points[i] ??= '';
  return Array.from(points, (p) => p ?? '');
}

/** Drops binary floating point noise (0.30000000000000004 → 0.3) from a cached number. */
function tidyNumber(value: string): string {
  if (!/^-?\d+\.\d{12,}$/.test(value.trim())) return value.trim();
  return String(Number(Number(value).toPrecision(15)));
}

/** A chart as lines of text, for a table cell or a note: its name, then each row of its data with the cells joined by spaces. */
export function chartLines(chart: Chart): Inline[][] {
  const lines: Inline[][] = [];
  for (const block of chartBlocks(chart, { file: '' })) {
    if (block.type === 'table') lines.push(...block.rows.map((row) => joined(row.map((cell) => cell.content))));
    else if (block.type === 'paragraph') lines.push(block.content);
  }
  return lines.filter(shows);
}
