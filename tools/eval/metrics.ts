/**
 * Text metrics of the fidelity scorer: normalisation, edit distances, similarity, reading order
 * (NID over words), WER and CER.
 * Everything here is pure and works on Unicode code points, so Hangul, CJK and astral-plane
 * characters count as one symbol each.
 */
import { alignment, codePoints, editDistance, lcsLength, toIds } from './sequences';

export * from './sequences';

import { decodeCharacterReferences, HTML_ENTITIES } from '@docconv/characters';

/** HTML character references decoded as the scorer reads them: the common named ones and every numeric one. */
export function decodeEntities(text: string): string {
  return decodeCharacterReferences(text, HTML_ENTITIES);
}

/**
 * Removes Markdown (and inline HTML) syntax but keeps what a reader sees: image references and
 * comments disappear, links keep their text, tags their content, block markers (headings,
 * quotes, list bullets, task boxes) are dropped. An ordered list item's number stays: a reader
 * sees it, and a plain-text reference holds the same digits (`2018. 9. 4.(화)` opening a line is
 * a date, not list syntax). Punctuation is left for the caller.
 */
export function stripMarkdown(markdown: string): string {
  return decodeEntities(
    markdown
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
      .replace(/!\[[^\]]*\]\[[^\]]*\]/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<((?:https?|ftp|mailto):[^>\s]+)>/gi, '$1')
      .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
      .replace(/^[ \t]*(?:>[ \t]*)*#{1,6}[ \t]+/gm, '')
      .replace(/^[ \t]*(?:>[ \t]*)+/gm, '')
      .replace(/^[ \t]*[-*+][ \t]+(?:\[[ xX]\][ \t]+)?/gm, ''),
  );
}

/**
 * The ways a text's tables may be read: as written, and, when it has HTML tables with spans, with
 * each merged cell read in every slot it covers (row by row, as GFM writes a merged cell, having
 * no spans). Both are the same table; a reference written either way is compared with the
 * reading in its own convention, and a missing or misplaced cell costs in both.
 */
function tableReadings(markdown: string): string[] {
  const grids = spannedTablesAsGrids(markdown);
  return grids === markdown ? [markdown] : [markdown, grids];
}

/** HTML tables with spans as grids (see `tableReadings`); tables holding tables are left as they are. */
function spannedTablesAsGrids(markdown: string): string {
  if (!/<t[hd]\b[^>]*\b(rowspan|colspan)=/i.test(markdown)) return markdown;
  return markdown.replace(/<table\b[^>]*>([\s\S]*?)<\/table>/gi, (whole, body: string) => {
    if (/<table\b/i.test(body)) return whole;
    const grid: string[][] = [];
    [...body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].forEach((row, r) => {
      grid[r] ??= [];
      let c = 0;
      for (const cell of row[1].matchAll(/<t([hd])\b([^>]*)>([\s\S]*?)<\/t\1>/gi)) {
        while (grid[r][c] !== undefined) c++;
        const span = (name: string) =>
          Math.min(1000, Math.max(1, Number(new RegExp(`${name}="?(\\d+)`, 'i').exec(cell[2])?.[1] ?? 1)));
        const text = cell[3].replace(/\s+/g, ' ').trim();
        for (let dr = 0; dr < span('rowspan'); dr++) {
          for (let dc = 0; dc < span('colspan'); dc++) (grid[r + dr] ??= [])[c + dc] = text;
        }
        c += span('colspan');
      }
    });
    return `\n${grid.map((row) => `| ${Array.from(row, (text) => text ?? '').join(' | ')} |`).join('\n')}\n`;
  });
}

/**
 * What text similarity compares: Markdown syntax removed, NFKC-normalised, lower-cased, and
 * every character that is not a letter, combining mark or digit (whitespace, punctuation,
 * symbols) removed.
 */
export function normalise(text: string): string {
  return stripMarkdown(text.normalize('NFKC'))
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '');
}

/** Levenshtein distance between two strings, counted in code points. */
export function levenshtein(a: string, b: string): number {
  return editDistance(codePoints(a), codePoints(b));
}

/** 1 − levenshtein / max(length): 1 for equal strings (including two empty ones), 0 for nothing in common. */
export function normalisedSimilarity(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - editDistance(x, y) / longest;
}

/**
 * Text similarity of a prediction to a reference: normalisedSimilarity of their normalised forms,
 * the prediction's tables read in the reference's convention (see `tableReadings`).
 */
export function similarity(prediction: string, reference: string): number {
  const target = normalise(reference);
  return Math.max(...tableReadings(prediction).map((reading) => normalisedSimilarity(normalise(reading), target)));
}

/**
 * The words of a text in reading order, for NID: Markdown syntax removed (as for similarity),
 * NFKC, lower case, emphasis characters `*` and `_` removed, split on whitespace, and every
 * character that is not a letter, mark or digit trimmed from both ends of a word. Emphasis inside
 * a word is common where particles attach to words (`**발사체**의` reads 발사체의), so its markers
 * must not split or change the word; whether they render is for the hygiene counts to say.
 * Trimming symbols as well as punctuation drops what Markdown leaves between words (table pipes,
 * rules) while keeping what is inside one ("don't", "3.14"). Words that are nothing but such
 * characters disappear.
 */
export function readingOrderWords(text: string): string[] {
  return stripMarkdown(text.normalize('NFKC'))
    .toLowerCase()
    .replace(/[*_]+/g, '')
    .split(/\s+/u)
    .map((word) => word.replace(/^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, ''))
    .filter((word) => word.length > 0);
}

/**
 * Reading-order similarity of a prediction to a reference: the normalised indel similarity of
 * their word sequences, 1 − indel / (|a| + |b|) with indel = |a| + |b| − 2·LCS, as
 * opendataloader-bench computes NID, here on words. Unlike similarity it is order-sensitive: the
 * same paragraphs in another order lose every word that falls outside the longest common
 * subsequence. Two empty texts score 1.
 */
export function nid(prediction: string, reference: string): number {
  const ids = new Map<string, number>();
  const b = toIds(readingOrderWords(reference), ids);
  return Math.max(
    ...tableReadings(prediction).map((reading) => {
      const a = toIds(readingOrderWords(reading), ids);
      const total = a.length + b.length;
      return total === 0 ? 1 : 1 - (total - 2 * lcsLength(a, b)) / total;
    }),
  );
}

/**
 * The words of a transcript for WER: NFKC, lower case, apostrophes inside words dropped
 * ("don't" is one word), every other character that is not a letter, mark or digit a separator.
 */
export function transcriptWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=[\p{L}\p{N}])['\u2019](?=[\p{L}\p{N}])/gu, '')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Word error rate: word-level edit distance (substitutions + deletions + insertions) divided
 * by the number of reference words. Can exceed 1 when the hypothesis has extra words. An empty
 * reference gives 0 for an empty hypothesis and 1 otherwise.
 */
export function wer(reference: string, hypothesis: string): number {
  const ref = transcriptWords(reference);
  const hyp = transcriptWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  const ids = new Map<string, number>();
  const id = (w: string): number => {
    let n = ids.get(w);
    if (n === undefined) ids.set(w, (n = ids.size));
    return n;
  };
  return editDistance(ref.map(id), hyp.map(id)) / ref.length;
}

/**
 * Character error rate: code-point edit distance divided by the reference length, both texts
 * reduced to their transcript words joined by single spaces.
 */
export function cer(reference: string, hypothesis: string): number {
  const ref = codePoints(transcriptWords(reference).join(' '));
  const hyp = codePoints(transcriptWords(hypothesis).join(' '));
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  return editDistance(ref, hyp) / ref.length;
}

// ---------------------------------------------------------------------------------------------
// Korean word spacing

const HANGUL = /\p{Script=Hangul}/u;

/** A text's letters and digits in order, each with whether whitespace stands before it. */
interface SpacedText {
  symbols: number[];
  spaced: boolean[];
  hangul: boolean[];
}

/**
 * The letters, marks and digits of a text (Markdown syntax removed, NFKC, lower case), each with
 * whether whitespace stands between it and the one before. Punctuation and symbols are skipped
 * without breaking a word: `발사체(KSLV-2)의` is one run of letters with no space in it, while
 * `장관 유영민,` has one between 관 and 유.
 */
function spacedText(text: string): SpacedText {
  const out: SpacedText = { symbols: [], spaced: [], hangul: [] };
  let space = false;
  for (const ch of stripMarkdown(text.normalize('NFKC')).toLowerCase()) {
    if (/\s/u.test(ch)) space = true;
    else if (/[\p{L}\p{M}\p{N}]/u.test(ch)) {
      out.symbols.push(ch.codePointAt(0)!);
      out.spaced.push(space && out.symbols.length > 1);
      out.hangul.push(HANGUL.test(ch));
      space = false;
    }
  }
  return out;
}

export interface SpacingScore {
  /** Of the word boundaries the prediction puts between comparable characters, the share the reference has. */
  precision: number;
  /** Of the reference's word boundaries between comparable characters, the share the prediction has. */
  recall: number;
  f1: number;
  /** How many places between two characters were compared. */
  compared: number;
}

/**
 * Korean word spacing of a prediction against a reference: precision and recall of the
 * reference's word boundaries. The two texts' characters are aligned (a longest common
 * subsequence); every place between two characters that follow each other in both texts and of
 * which at least one is Hangul is compared — a space there in both, in one, or in neither. Places
 * next to a misread character are left to the character similarity, so this measures spacing
 * alone: a space between every syllable scores a precision near 0.3, syllables run together a
 * recall near 0. Undefined when the reference holds no Hangul.
 */
export function wordSpacing(prediction: string, reference: string): SpacingScore | undefined {
  const p = spacedText(prediction);
  const r = spacedText(reference);
  if (!r.hangul.some(Boolean)) return undefined;
  const match = alignment(p.symbols, r.symbols);
  let both = 0;
  let predictedOnly = 0;
  let referenceOnly = 0;
  for (let i = 1; i < p.symbols.length; i++) {
    const j = match[i];
    if (j <= 0 || match[i - 1] !== j - 1 || !(p.hangul[i] || p.hangul[i - 1])) continue;
    if (p.spaced[i] && r.spaced[j]) both++;
    else if (p.spaced[i]) predictedOnly++;
    else if (r.spaced[j]) referenceOnly++;
  }
  const precision = both + predictedOnly === 0 ? 1 : both / (both + predictedOnly);
  const recall = both + referenceOnly === 0 ? 1 : both / (both + referenceOnly);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, compared: p.symbols.length - 1 };
}

/**
 * Spearman's rank correlation of paired values (ties get their mean rank), or undefined for
 * fewer than three pairs or when either side does not vary.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number | undefined {
  if (xs.length !== ys.length || xs.length < 3) return undefined;
  const rx = ranks(xs);
  const ry = ranks(ys);
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const [mx, my] = [mean(rx), mean(ry)];
  let covariance = 0;
  let vx = 0;
  let vy = 0;
  for (let i = 0; i < rx.length; i++) {
    covariance += (rx[i] - mx) * (ry[i] - my);
    vx += (rx[i] - mx) ** 2;
    vy += (ry[i] - my) ** 2;
  }
  return vx === 0 || vy === 0 ? undefined : covariance / Math.sqrt(vx * vy);
}

function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1].value === order[i].value) j++;
    for (let k = i; k <= j; k++) out[order[k].index] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}
