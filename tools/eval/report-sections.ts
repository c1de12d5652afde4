/**
 * The sections printed after the per-format summary: OCR confidence against text similarity,
 * tables as a reader meets them, and HWP/HWPX pairs of one document.
 */
import { similarity, spearman } from './metrics';
import { GROUPS, type ItemReport, type ReferenceGroup } from './report';
import { poolTableScores, type TableScores } from './tables';
import { fixed, grid } from './text-grid';

// ---------------------------------------------------------------------------------------------
// OCR

/**
 * Whether the OCR confidence means something: over the inputs read by OCR that have a text
 * reference, Spearman's ρ between their confidence and their text similarity, with the pairs.
 */
export function confidenceAgreement(items: ItemReport[]): { rho?: number; pairs: [string, number, number][] } {
  const pairs = items
    .filter((item) => item.ocr && item.ocr.pages > 0)
    .flatMap((item): [string, number, number][] => {
      const score = item.metrics.independent.similarity ?? item.metrics.docling.similarity;
      return score === undefined ? [] : [[item.path, item.ocr!.confidence, score]];
    });
  return {
    rho: spearman(
      pairs.map((p) => p[1]),
      pairs.map((p) => p[2]),
    ),
    pairs,
  };
}

/** The OCR section printed after the tables: confidence against similarity, and seconds per page. */
export function formatOcr(items: ItemReport[]): string {
  const read = items.filter((item) => item.ocr && item.ocr.pages > 0);
  if (read.length === 0) return 'OCR: no page was read by OCR.';
  const { rho, pairs } = confidenceAgreement(items);
  const rows = read.map((item) => {
    const pair = pairs.find((p) => p[0] === item.path);
    const seconds = item.ocr!.seconds;
    return [
      item.path,
      String(item.ocr!.pages),
      item.ocr!.confidence.toFixed(1),
      pair ? fixed(pair[2]) : '',
      (seconds.reduce((a, b) => a + b, 0) / seconds.length).toFixed(2),
      Math.max(...seconds).toFixed(2),
      String(item.ocr!.lowConfidence),
    ];
  });
  const table = grid(['input', 'pages', 'confidence', 'similarity', 's/page', 'slowest', 'low-confidence'], rows, [
    false,
    true,
    true,
    true,
    true,
    true,
    true,
  ]);
  const agreement =
    rho === undefined
      ? `too few inputs with a text reference (${pairs.length}) to rank`
      : `Spearman ρ = ${rho.toFixed(3)} over ${pairs.length} inputs`;
  return `OCR pages: confidence against text similarity: ${agreement}
${table.replace(/^/gm, '  ')}`;
}

// ---------------------------------------------------------------------------------------------
// Tables

/** Each scored item's tables as a reader meets them (scoreTables), per reference group. */
export function tableItems(items: ItemReport[]): { item: ItemReport; group: ReferenceGroup; read: TableScores }[] {
  return items.flatMap((item) =>
    GROUPS.flatMap((group) => {
      const read = item.details?.tables?.[group]?.read;
      return read ? [{ item, group, read }] : [];
    }),
  );
}

/**
 * The tables section: one line per document with reference tables (cell-content F1, cell-adjacency
 * F1, TEDS and exact grid as means over its reference tables; detection as found/references and
 * found/output tables), then per format and group the same pooled over every reference table.
 */
export function formatTables(items: ItemReport[]): string {
  const scored = tableItems(items);
  if (scored.length === 0) return 'Tables: no input has reference tables.';
  const row = (name: string, group: string, s: NonNullable<ReturnType<typeof poolTableScores>>): string[] => [
    name,
    group,
    String(s.references),
    String(s.predicted),
    fixed(s.cellF1),
    fixed(s.adjacencyF1),
    fixed(s.teds),
    fixed(s.exactGrid),
    fixed(s.recall),
    fixed(s.precision),
  ];
  const header = [
    'input',
    'reference',
    'tables',
    'output',
    'cell F1',
    'adjacency F1',
    'TEDS',
    'exact grid',
    'recall',
    'precision',
  ];
  const numeric = [false, false, true, true, true, true, true, true, true, true];
  const perDocument = scored.map(({ item, group, read }) => row(item.path, group, poolTableScores([read])!));
  const formats = [...new Set(scored.map((s) => s.item.format))];
  const perFormat = formats.flatMap((format) =>
    GROUPS.flatMap((group) => {
      const pooled = poolTableScores(
        scored.filter((s) => s.item.format === format && s.group === group).map((s) => s.read),
      );
      return pooled ? [row(`${format} (${pooled.documents} inputs)`, group, pooled)] : [];
    }),
  );
  return [
    'Tables per document: means over its reference tables; detection as found over reference tables and over output tables',
    grid(header, perDocument, numeric).replace(/^/gm, '  '),
    '',
    'Tables per format, pooled over every reference table',
    grid(header, perFormat, numeric).replace(/^/gm, '  '),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// HWP and HWPX pairs

/** One document present both as `hwp/<name>.hwp` and `hwpx/<name>.hwpx`. */
export interface PairScore {
  name: string;
  hwp: string;
  hwpx: string;
  /** Text similarity of the two Markdown outputs (the HWPX one taken as the reference). */
  similarity: number;
}

/**
 * The HWP/HWPX pairs of a run: for every name with both an `hwp/<name>.hwp` and an
 * `hwpx/<name>.hwpx` output (keyed by their paths relative to the set), the text similarity
 * between the two outputs. The same document saved in either format should read the same.
 */
export function hwpPairs(outputs: ReadonlyMap<string, string>): PairScore[] {
  const pairs: PairScore[] = [];
  for (const [path, markdown] of outputs) {
    const match = /^hwp\/(.+)\.hwp$/i.exec(path);
    if (!match) continue;
    const hwpx = [...outputs.keys()].find((p) => p.toLowerCase() === `hwpx/${match[1]}.hwpx`.toLowerCase());
    if (hwpx === undefined) continue;
    pairs.push({ name: match[1], hwp: path, hwpx, similarity: similarity(markdown, outputs.get(hwpx)!) });
  }
  return pairs.sort((a, b) => a.name.localeCompare(b.name));
}

/** The pairs as a small table, or a line saying there are none. */
export function formatPairs(pairs: PairScore[]): string {
  if (pairs.length === 0) return 'HWP/HWPX pairs: none in this set.';
  const mean = pairs.reduce((s, p) => s + p.similarity, 0) / pairs.length;
  const table = grid(
    ['name', 'hwp', 'hwpx', 'similarity'],
    pairs.map((p) => [p.name, p.hwp, p.hwpx, fixed(p.similarity)]),
    [false, false, false, true],
  );
  return `HWP/HWPX pairs: text similarity between the two outputs, mean ${fixed(mean)} over ${pairs.length}
${table.replace(/^/gm, '  ')}`;
}
