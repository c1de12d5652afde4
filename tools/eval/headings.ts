/**
 * Heading structure of a Markdown output against a reference Markdown: which reference headings
 * the output has as headings (and no others), and whether their levels nest the same way.
 */
import type { Nodes } from 'mdast';
import { inlineText, parseCommonMark } from './markdown';
import { codePoints, editDistance, normalise } from './metrics';

export interface Heading {
  /** 1 for `#` to 6 for `######`. */
  level: number;
  text: string;
}

/** Least normalisedSimilarity of two heading texts for them to be the same heading. */
export const HEADING_MATCH = 0.8;

export interface HeadingScore {
  /** Headings in the output and in the reference. */
  predicted: number;
  reference: number;
  /** Pairs of an output heading and a reference heading aligned in order. */
  matched: number;
  /** matched / predicted, matched / reference, and their harmonic mean. */
  precision: number;
  recall: number;
  f1: number;
  /** Share of the pairs of matched headings the reference nests that the output nests the same way (see nesting). */
  levelAgreement: number;
  /** f1 × levelAgreement. */
  score: number;
}

/**
 * The headings of a Markdown text in document order, as a CommonMark renderer shows them: ATX
 * (`## Title`) and setext (a line underlined with `===` or `---`) alike, since a reader cannot
 * tell them apart; their text without inline syntax.
 */
export function markdownHeadings(markdown: string): Heading[] {
  const headings: Heading[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'heading') {
      headings.push({ level: node.depth, text: inlineText(node).trim() });
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(parseCommonMark(markdown));
  return headings;
}

/**
 * Scores the output's headings against the reference's. Headings are aligned in order, as a
 * longest common subsequence in which two headings may pair when their normalised texts have a
 * normalisedSimilarity of at least HEADING_MATCH (among alignments with the most pairs, the one
 * with the most similar texts). Precision is over the output's headings, recall over the
 * reference's. Levels are compared by rank, each side's distinct levels numbered 1..n from the
 * top, so `##`/`###` in one matches `#`/`##` in the other. With no headings on either side the
 * score is 1; headings where the reference has none make precision, and the score, 0.
 */
export function headingStructure(predicted: Heading[], reference: Heading[]): HeadingScore {
  if (predicted.length === 0 && reference.length === 0) {
    return { predicted: 0, reference: 0, matched: 0, precision: 1, recall: 1, f1: 1, levelAgreement: 1, score: 1 };
  }
  const pairs = alignHeadings(
    predicted.map((h) => h.text),
    reference.map((h) => h.text),
  );
  const matched = pairs.length;
  const precision = predicted.length === 0 ? 0 : matched / predicted.length;
  const recall = reference.length === 0 ? 0 : matched / reference.length;
  const f1 = matched === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const levelAgreement = matched === 0 ? 0 : nesting(pairs, predicted, reference);
  return {
    predicted: predicted.length,
    reference: reference.length,
    matched,
    precision,
    recall,
    f1,
    levelAgreement,
    score: f1 * levelAgreement,
  };
}

/** Each distinct level of a heading list mapped to its rank, 1 for the topmost level used. */
/**
 * Of the matched headings the reference sets at different levels, the share of pairs the output
 * orders the same way (the higher one higher); 1 when the reference sets them all at one level.
 * Headings the reference sets at one level are not compared: many references (docling's
 * among them) write every section at one level, which says nothing about their nesting.
 */
function nesting(pairs: [number, number][], predicted: Heading[], reference: Heading[]): number {
  let compared = 0;
  let agreeing = 0;
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const byReference = Math.sign(reference[pairs[j][1]].level - reference[pairs[i][1]].level);
      if (byReference === 0) continue;
      compared++;
      if (Math.sign(predicted[pairs[j][0]].level - predicted[pairs[i][0]].level) === byReference) agreeing++;
    }
  }
  return compared === 0 ? 1 : agreeing / compared;
}

/**
 * The in-order alignment of two lists of heading texts: index pairs [output, reference], found
 * by dynamic programming over all prefixes. A pair scores its count first and its similarity as a
 * tie-breaker, so no alignment with more pairs is ever passed over for more similar ones.
 */
export function alignHeadings(predicted: string[], reference: string[]): [number, number][] {
  const a = predicted.map((t) => codePoints(normalise(t)));
  const b = reference.map((t) => codePoints(normalise(t)));
  const n = a.length;
  const m = b.length;
  // Similarities sum to at most min(n, m) < weight, so one more pair always outweighs them.
  const weight = Math.min(n, m) + 1;
  const best = new Float64Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const sim = textSimilarity(a[i - 1], b[j - 1]);
      const pair = sim >= HEADING_MATCH ? best[at(i - 1, j - 1)] + weight + sim : -1;
      best[at(i, j)] = Math.max(best[at(i - 1, j)], best[at(i, j - 1)], pair);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = n, j = m; i > 0 && j > 0;) {
    if (best[at(i, j)] === best[at(i - 1, j)]) i--;
    else if (best[at(i, j)] === best[at(i, j - 1)]) j--;
    else {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    }
  }
  return pairs.reverse();
}

/**
 * normalisedSimilarity of two code-point sequences, skipping the edit distance when their lengths
 * alone rule out HEADING_MATCH (the distance is at least the difference in length).
 */
function textSimilarity(x: number[], y: number[]): number {
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  if (1 - Math.abs(x.length - y.length) / longest < HEADING_MATCH) return 0;
  return 1 - editDistance(x, y) / longest;
}
