/**
 * Bold, italic and struck-through text as Markdown that CommonMark and GFM read as meant.
 *
 * A delimiter run (`**`, `*`, `~~`) opens emphasis only when it is left-flanking and closes it
 * only when it is right-flanking (CommonMark 0.31, section 6.2): roughly, the character on its
 * inner side must not be whitespace, and when it is punctuation the character on its outer side
 * must be whitespace or punctuation too. So `이름**“누리”**가` is not bold, while `이름“**누리**”가`
 * is. Delimiters are therefore placed on the formatted text's non-space ends, punctuation at an
 * end is left outside when the delimiter would otherwise be refused, and a formatting that no
 * placement can express (a span of punctuation only, `~~` and `**` meeting inside a word) is
 * dropped rather than written as literal markers. Only `*`, `**` and `~~` are written: `_` cannot
 * open or close inside a word. Literal `*`, `_` and `~` are escaped wherever they could be read as
 * delimiters, a single tilde only when another in the paragraph could pair with it.
 */

/** Character formatting that Markdown writes with delimiters. */
export interface Emphasis {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
}

/**
 * Text in reading order: Markdown whose other syntax the caller has escaped already (a backslash
 * before ASCII punctuation is kept as an escape) and whose `*`, `_` and `~` are literal characters.
 */
export interface TextRun extends Emphasis {
  kind: 'text';
  text: string;
}

/** Markdown written as is, such as inline math or a footnote reference; emphasis on both sides continues through it. */
export interface RawRun {
  kind: 'raw';
  markdown: string;
}

/** A line break, written as is; it ends all emphasis. */
export interface BreakRun {
  kind: 'break';
  markdown: string;
}

/** A piece of inline content. */
export type InlineRun = TextRun | RawRun | BreakRun;

type CharClass = 'space' | 'punctuation' | 'other';

interface Mark {
  bit: number;
  delimiter: '~~' | '**' | '*';
}

/**
 * How text is cut into units: a backslash escape, a run of characters that are neither whitespace
 * nor punctuation (delimiters never go inside one), or any other single character.
 */
const TEXT_UNIT = /\\[!-/:-@[-`{-~]|[^\s\p{P}\p{S}]+|[\s\S]/gu;

/** In the order delimiters are opened when spans start and end together: strike outermost. */
const MARKS: readonly Mark[] = [
  { bit: 1, delimiter: '~~' },
  { bit: 2, delimiter: '**' },
  { bit: 4, delimiter: '*' },
];

/** A character, a backslash escape, a run of letters and digits or a raw piece: delimiters go only between units. */
interface Unit {
  markdown: string;
  /** Classes of the first and last character, which decide whether a delimiter beside the unit is flanking. */
  head: CharClass;
  tail: CharClass;
  /** Formatting bits the unit asks for; undefined for whitespace and raw pieces, which take their neighbours'. */
  wanted: number | undefined;
  /** A literal `*`, `_` or `~`, escaped or not once the delimiters around it are known. */
  literal: boolean;
}

/** The delimiters between two units: those closing (innermost first), then those opening (outermost first). */
interface Boundary {
  closing: readonly Mark[];
  opening: readonly Mark[];
}

const NO_DELIMITERS: Boundary = { closing: [], opening: [] };

/** What the text being written belongs to, beyond the runs given. */
export interface EmphasisContext {
  /**
   * Whether the paragraph holds two or more single tildes that could be delimiters, which GFM
   * would pair into strikethrough (`1~2 and 3~4`); a single tilde alone is left as it is. Judged
   * from the runs when absent; a caller writing one paragraph in several parts judges it for the
   * whole paragraph with `tildesCouldPair`.
   */
  tildesPair?: boolean;
}

/**
 * Inline Markdown for runs of formatted text. Adjacent runs with the same formatting share one
 * pair of delimiters, whitespace at a span's ends stays outside it, and empty runs vanish. The
 * result reads as meant wherever it follows whitespace, punctuation or the start of a line and
 * precedes whitespace, punctuation or the end of a line (brackets of a link included).
 */
export function emphasisMarkdown(runs: readonly InlineRun[], context: EmphasisContext = {}): string {
  if (runs.every(isPlain)) return runs.map((r) => (r.kind === 'text' ? r.text : r.markdown)).join('');
  const tildesPair = context.tildesPair ?? tildesCouldPair(runs.map((r) => (r.kind === 'text' ? r.text : '')));
  const units = runs.flatMap(toUnits);
  const removed = new Array<number>(units.length).fill(0);
  for (;;) {
    const styles = resolveStyles(units, removed);
    const boundaries = placeDelimiters(units, styles);
    if (!refuseUnreadable(units, styles, boundaries, removed)) return write(units, boundaries, tildesPair);
  }
}

/**
 * Escapes the `*`, `_` and `~` of Markdown-ready text wherever they could be read as delimiters:
 * an asterisk is left alone only between spaces (`5 * 3`), an underscore only between spaces or
 * inside a word (`snake_case`), a single tilde also when no other could pair with it (`600~800km`).
 */
export function escapeEmphasis(markdown: string, context: EmphasisContext = {}): string {
  if (!/[*_~]/.test(markdown)) return markdown;
  return emphasisMarkdown([{ kind: 'text', text: markdown }], context);
}

/**
 * Whether texts that end up in one paragraph hold two or more single tildes that could open or
 * close strikethrough: a tilde between two spaces cannot, and a tilde at either end of a text
 * counts, since what comes next is unknown.
 */
export function tildesCouldPair(texts: readonly string[]): boolean {
  const couldBeDelimiters = texts.flatMap((text) =>
    [...text.matchAll(/(?<![~\\])~(?!~)/g)].filter(
      (m) => !/\s/.test(text[m.index - 1] ?? '') || !/\s/.test(text[m.index + 1] ?? ''),
    ),
  );
  return couldBeDelimiters.length >= 2;
}

function isPlain(run: InlineRun): boolean {
  return run.kind !== 'text' || (!run.bold && !run.italic && !run.strike && !/[*_~]/.test(run.text));
}

/** The class of the first or last character of non-empty Markdown, as the flanking rules see it. */
function classOf(markdown: string, edge: 'first' | 'last'): CharClass {
  const char = (edge === 'first' ? /^[\s\S]/u : /[\s\S]$/u).exec(markdown)?.[0] ?? '';
  if (char === '' || /\s/u.test(char)) return 'space';
  return /[\p{P}\p{S}]/u.test(char) ? 'punctuation' : 'other';
}

function toUnits(run: InlineRun): Unit[] {
  if (run.kind !== 'text') {
    if (run.markdown === '') return [];
    return [
      {
        markdown: run.markdown,
        head: classOf(run.markdown, 'first'),
        tail: classOf(run.markdown, 'last'),
        wanted: run.kind === 'break' ? 0 : undefined,
        literal: false,
      },
    ];
  }
  const bits = (run.strike ? 1 : 0) | (run.bold ? 2 : 0) | (run.italic ? 4 : 0);
  return [...run.text.matchAll(TEXT_UNIT)].map(([markdown]) => {
    const kind = classOf(markdown, 'first');
    return {
      markdown,
      head: kind,
      tail: kind,
      wanted: kind === 'space' ? undefined : bits,
      literal: markdown === '*' || markdown === '_' || markdown === '~',
    };
  });
}

/**
 * The formatting of every unit once refused formatting is taken off: whitespace and raw pieces
 * carry what the nearest units on both sides share, so a span continues across them but never
 * starts or ends on them.
 */
function resolveStyles(units: readonly Unit[], removed: readonly number[]): number[] {
  const base = units.map((u, i) => (u.wanted === undefined ? undefined : u.wanted & ~removed[i]));
  const left: number[] = [];
  let carry = 0;
  for (const style of base) left.push((carry = style ?? carry));
  const styles = new Array<number>(units.length);
  carry = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    carry = base[i] ?? carry;
    styles[i] = base[i] ?? left[i] & carry & ~removed[i];
  }
  return styles;
}

/**
 * Delimiters at every boundary, properly nested: a span that must end closes the spans opened
 * inside it and reopens those that go on, and of spans starting together the longer one opens
 * first. Whitespace and raw pieces continue spans but never start one, so a span reopened after
 * a space opens after it.
 */
function placeDelimiters(units: readonly Unit[], styles: readonly number[]): Boundary[] {
  const reach = MARKS.map(({ bit }) => {
    const lengths = new Array<number>(styles.length + 1).fill(0);
    for (let i = styles.length - 1; i >= 0; i--) lengths[i] = styles[i] & bit ? lengths[i + 1] + 1 : 0;
    return lengths;
  });
  const open: Mark[] = [];
  const boundaries: Boundary[] = [];
  for (let b = 0; b <= styles.length; b++) {
    const want = styles[b] ?? 0;
    let keep = 0;
    while (keep < open.length && want & open[keep].bit) keep++;
    if (keep === open.length && open.reduce((bits, m) => bits | m.bit, 0) === want) {
      boundaries.push(NO_DELIMITERS);
      continue;
    }
    const closing = open.splice(keep).reverse();
    const opening =
      units[b]?.wanted === undefined && b < units.length
        ? []
        : MARKS.filter((m) => want & m.bit && !open.includes(m)).sort(
            (x, y) => reach[MARKS.indexOf(y)][b] - reach[MARKS.indexOf(x)][b],
          );
    open.push(...opening);
    boundaries.push({ closing, opening });
  }
  return boundaries;
}

/** CommonMark's left-flanking rule, which is also when GFM lets a tilde run open. */
function leftFlanking(before: CharClass, after: CharClass): boolean {
  return after !== 'space' && (after !== 'punctuation' || before !== 'other');
}

/** CommonMark's right-flanking rule, which is also when GFM lets a tilde run close. */
function rightFlanking(before: CharClass, after: CharClass): boolean {
  return before !== 'space' && (before !== 'punctuation' || after !== 'other');
}

/**
 * Finds every delimiter run CommonMark would refuse and takes the formatting it stood for off
 * units: a punctuation unit at the span's end when the refusal comes from that character (the
 * span then ends or starts next to it), otherwise the whole span. Returns whether anything changed.
 */
function refuseUnreadable(units: Unit[], styles: number[], boundaries: Boundary[], removed: number[]): boolean {
  let changed = false;
  const take = (i: number, bit: number): void => {
    if (styles[i] & bit && !(removed[i] & bit)) changed = true;
    removed[i] |= bit;
  };
  const takeSpan = (from: number, step: 1 | -1, bit: number): void => {
    for (let i = from; i >= 0 && i < units.length && styles[i] & bit; i += step) take(i, bit);
  };
  boundaries.forEach((boundary, b) => {
    if (boundary === NO_DELIMITERS) return;
    const runs = delimiterRuns(boundary);
    runs.forEach((run, k) => {
      const before = k > 0 ? 'punctuation' : b > 0 ? units[b - 1].tail : 'space';
      const after = k < runs.length - 1 ? 'punctuation' : b < units.length ? units[b].head : 'space';
      if (run.opening.length > 0 && !leftFlanking(before, after)) {
        const edge = k === runs.length - 1 && after === 'punctuation';
        for (const m of run.opening) {
          if (edge) take(b, m.bit);
          else takeSpan(b, 1, m.bit);
        }
      }
      if (run.closing.length > 0 && !rightFlanking(before, after)) {
        const edge = k === 0 && before === 'punctuation';
        for (const m of run.closing) {
          if (edge) take(b - 1, m.bit);
          else takeSpan(b - 1, -1, m.bit);
        }
      }
    });
  });
  return changed;
}

/** A boundary's delimiters as CommonMark sees them: consecutive delimiters of one character form one run. */
function delimiterRuns(boundary: Boundary): { closing: Mark[]; opening: Mark[] }[] {
  const runs: { char: string; closing: Mark[]; opening: Mark[] }[] = [];
  const add = (mark: Mark, side: 'closing' | 'opening'): void => {
    const char = mark.delimiter[0];
    if (runs.at(-1)?.char !== char) runs.push({ char, closing: [], opening: [] });
    runs[runs.length - 1][side].push(mark);
  };
  for (const mark of boundary.closing) add(mark, 'closing');
  for (const mark of boundary.opening) add(mark, 'opening');
  return runs;
}

function write(units: readonly Unit[], boundaries: readonly Boundary[], tildesPair: boolean): string {
  const delimiters = boundaries.map((b) =>
    b === NO_DELIMITERS ? '' : [...b.closing, ...b.opening].map((m) => m.delimiter).join(''),
  );
  let out = delimiters[0];
  let lineStart = delimiters[0] === '';
  units.forEach((unit, i) => {
    if (unit.literal && unit.markdown === '~' && !tildesPair && loneTilde(units, delimiters, i)) {
      out += unit.markdown;
    } else if (unit.literal) {
      const before = lineStart ? undefined : delimiters[i] !== '' ? 'punctuation' : units[i - 1].tail;
      const after = delimiters[i + 1] !== '' ? 'punctuation' : i + 1 < units.length ? units[i + 1].head : undefined;
      out += literalMarkdown(unit.markdown, before, after);
    } else {
      out += unit.markdown;
    }
    out += delimiters[i + 1];
    if (unit.markdown.includes('\n')) lineStart = delimiters[i + 1] === '';
    else if (unit.head !== 'space' || delimiters[i + 1] !== '') lineStart = false;
  });
  return out;
}

/** Whether the tilde at `i` touches neither another tilde nor a delimiter, so that it forms a run of its own. */
function loneTilde(units: readonly Unit[], delimiters: readonly string[], i: number): boolean {
  const tilde = (unit: Unit | undefined) => unit?.literal === true && unit.markdown === '~';
  return delimiters[i] === '' && delimiters[i + 1] === '' && !tilde(units[i - 1]) && !tilde(units[i + 1]);
}

/**
 * A literal `*`, `_` or `~` given the classes of the characters written beside it: escaped unless
 * it can neither open nor close there. Before it, undefined stands for the start of a line (after
 * nothing but whitespace), where it could begin a list item or a rule; after it, for the end of
 * the output, where what follows is unknown.
 */
function literalMarkdown(char: string, before: CharClass | undefined, after: CharClass | undefined): string {
  const betweenSpaces = before === 'space' && after === 'space';
  const insideWord = char === '_' && before === 'other' && after === 'other';
  return betweenSpaces || insideWord ? char : `\\${char}`;
}
