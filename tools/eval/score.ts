/**
 * Scoring one output: the Markdown against each of its references, OCR confidence summed over
 * the pages read by OCR, and the worst scores a failed extraction stands for.
 */
import type { PageReport } from '@docconv/reading';
import { headingStructure, markdownHeadings } from './headings';
import { cer, nid, similarity, wer, wordSpacing } from './metrics';
import { markdownLabels, numberingScore, textLabels } from './numbering';
import { runChecks, runTests } from './olmocr';
import type { ItemMetrics, ItemReport, OcrSummary, ReferenceGroup } from './report';
import { matchTables, parseMarkdownTables, scoreTables, structureExactness } from './tables';
import type { References } from './references';

export interface Scored {
  metrics: Record<ReferenceGroup, ItemMetrics>;
  details: NonNullable<ItemReport['details']>;
}

/** The metrics and details of an output against each reference it has; a transcript (`transcript`) is also scored by WER and CER against its independent text. */
export function score(markdown: string, refs: References, transcript: boolean): Scored {
  const metrics: Record<ReferenceGroup, ItemMetrics> = { docling: {}, independent: {} };
  const details: Scored['details'] = {};
  for (const group of ['docling', 'independent'] as const) {
    const text = refs.text[group];
    if (text !== undefined) {
      metrics[group].similarity = similarity(markdown, text);
      const spacing = wordSpacing(markdown, text);
      if (spacing) metrics[group].spacing = spacing.f1;
      metrics[group].nid = nid(markdown, text);
    }
    if (text !== undefined && transcript && group === 'independent') {
      metrics[group].wer = wer(text, markdown);
      metrics[group].cer = cer(text, markdown);
    }
  }
  if (refs.visual !== undefined) {
    metrics.independent.visualSimilarity = similarity(markdown, refs.visual);
    const spacing = wordSpacing(markdown, refs.visual);
    if (spacing) metrics.independent.visualSpacing = spacing.f1;
    metrics.independent.visualNid = nid(markdown, refs.visual);
  }
  if (refs.markdown !== undefined) {
    details.headings = headingStructure(markdownHeadings(markdown), markdownHeadings(refs.markdown));
    metrics.docling.headings = details.headings.score;
  }
  // Numbering labels: the `.ref.md`'s paragraphs (docling group), and the lines of the Hancom
  // export in visual order or else of the `.ref.txt` (independent group; not of transcripts).
  const labelReferences: Record<ReferenceGroup, string[]> = {
    docling: refs.markdown !== undefined ? markdownLabels(refs.markdown) : [],
    independent:
      refs.visual !== undefined
        ? textLabels(refs.visual)
        : refs.text.independent !== undefined && !transcript
          ? textLabels(refs.text.independent)
          : [],
  };
  if (labelReferences.docling.length > 0 || labelReferences.independent.length > 0) {
    const labels = markdownLabels(markdown);
    for (const group of ['docling', 'independent'] as const) {
      const numbering = numberingScore(labels, labelReferences[group]);
      if (!numbering) continue;
      metrics[group].numbering = numbering.f1;
      (details.numbering ??= {})[group] = numbering;
    }
  }
  const predicted = refs.tables.docling || refs.tables.independent ? parseMarkdownTables(markdown) : [];
  for (const group of ['docling', 'independent'] as const) {
    const reference = refs.tables[group];
    const match = reference ? matchTables(predicted, reference) : undefined;
    if (!match) continue;
    metrics[group].teds = match.mean;
    const structure = structureExactness(predicted, reference!, match);
    if (structure) metrics[group].tableExact = structure.matched / structure.counted;
    const read = scoreTables(predicted, reference!);
    if (read) {
      metrics[group].cellF1 = read.cellF1;
      metrics[group].adjacencyF1 = read.adjacencyF1;
      metrics[group].tableRecall = read.recall;
      metrics[group].tablePrecision = read.precision;
    }
    (details.tables ??= {})[group] = {
      scores: match.scores,
      predicted: predicted.length,
      exact: match.exact,
      structure,
      read,
    };
  }
  if (refs.tests) {
    const { outcomes, passRate } = runTests(refs.tests, markdown);
    details.tests = outcomes;
    if (passRate.rate !== undefined) metrics.independent.tests = passRate.rate;
  }
  if (refs.checks) {
    const { outcomes, passRate } = runChecks(refs.checks, markdown);
    details.checks = outcomes;
    if (passRate.rate !== undefined) metrics.independent.checks = passRate.rate;
  }
  return { metrics, details };
}

/** The pages read whole by OCR, summed up; nothing when there are none. */
export function ocrSummary(pages: PageReport[]): { ocr?: OcrSummary } {
  const read = pages.filter((page) => page.source === 'ocr' && page.confidence !== undefined);
  if (read.length === 0) return {};
  return {
    ocr: {
      pages: read.length,
      confidence: read.reduce((sum, page) => sum + page.confidence!, 0) / read.length,
      seconds: read.map((page) => page.seconds ?? 0),
      lowConfidence: read.filter((page) => page.low_confidence).length,
    },
  };
}

/** A failed extraction scores the worst on every metric the input has references for. */
export function worst(metrics: Record<ReferenceGroup, ItemMetrics>): Record<ReferenceGroup, ItemMetrics> {
  const out: Record<ReferenceGroup, ItemMetrics> = { docling: {}, independent: {} };
  for (const group of ['docling', 'independent'] as const) {
    for (const [name, value] of Object.entries(metrics[group]) as [keyof ItemMetrics, number][]) {
      if (value !== undefined) out[group][name] = name === 'wer' || name === 'cer' ? 1 : 0;
    }
  }
  return out;
}
