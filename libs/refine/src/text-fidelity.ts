/**
 * How much of a page's text an edited version keeps, and how much it adds, measured on words
 * rather than on Markdown: reformatting (headings, lists, tables, joined lines, new reading
 * order) changes no word, while dropping, summarising, translating or inventing text does.
 */

/** A run of letters, digits and combining marks: a word, a number, or part of one. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Scripts written without spaces between words: each of their characters counts as a word. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu;

/** A word split by a hyphen at a line break (`conver-\nsion`), which refinement may join. */
const HYPHENATED_LINE_BREAK = /(\p{L})-[ \t]*\r?\n[ \t]*(\p{L})/gu;

/** HTML tags and entities (`<br>`, `&amp;`): markup a model may add or remove inside tables. */
const HTML_MARKUP = /<\/?[a-z][^<>]*>|&(?:[a-z]+|#\d+|#x[\da-f]+);/gi;

const SOFT_HYPHEN = /\u00ad/g;

/**
 * The words of a Markdown text, in order: compatibility-normalised (NFKC, so ligatures and
 * full-width forms match their plain letters), lower-cased, with Markdown punctuation, HTML
 * markup and whitespace left out.
 */
export function textTokens(markdown: string): string[] {
  const text = markdown
    .normalize('NFKC')
    .replace(SOFT_HYPHEN, '')
    .replace(HYPHENATED_LINE_BREAK, '$1$2')
    .replace(HTML_MARKUP, ' ')
    .replace(UNSPACED_SCRIPT, ' $& ')
    .toLowerCase();
  return text.match(WORD) ?? [];
}

export interface TextFidelity {
  originalTokens: number;
  answerTokens: number;
  /**
   * Share of the original's words the answer still has, counted with multiplicity (a word
   * twice on the page must be there twice): 0…1, and 1 when the original has no words.
   */
  kept: number;
  /**
   * Share of the answer's words that are not on the original (beyond the number of times they
   * are there) and not among the allowed words: 0…1, and 0 when the answer has no words.
   */
  added: number;
}

/**
 * Compares an edited text with its original, word by word as multisets, so order does not
 * matter. Words of `allowed` (e.g. table column names the user asked for) never count as
 * added, however often they appear.
 */
export function measureFidelity(original: string, answer: string, allowed: readonly string[] = []): TextFidelity {
  const originalCounts = countTokens(textTokens(original));
  const answerCounts = countTokens(textTokens(answer));
  const allowedTokens = new Set(allowed.flatMap(textTokens));
  let originalTotal = 0;
  let answerTotal = 0;
  let shared = 0;
  let added = 0;
  for (const count of originalCounts.values()) originalTotal += count;
  for (const [token, count] of answerCounts) {
    const onOriginal = originalCounts.get(token) ?? 0;
    answerTotal += count;
    shared += Math.min(count, onOriginal);
    if (!allowedTokens.has(token)) added += Math.max(0, count - onOriginal);
  }
  return {
    originalTokens: originalTotal,
    answerTokens: answerTotal,
    kept: originalTotal === 0 ? 1 : shared / originalTotal,
    added: answerTotal === 0 ? 0 : added / answerTotal,
  };
}

function countTokens(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}
