import { emphasisMarkdown, escapeEmphasis, tildesCouldPair, type InlineRun } from './emphasis';
import { type FormattedChar, formattedChars, formattedSpans, leftoverDelimiters } from './testing/read-back';

const text = (value: string, style: { bold?: boolean; italic?: boolean; strike?: boolean } = {}): InlineRun => ({
  kind: 'text',
  text: value,
  ...style,
});
const bold = (value: string) => text(value, { bold: true });
const italic = (value: string) => text(value, { italic: true });

/** Writes the runs, checks what a CommonMark parse reads back, and returns the Markdown. */
function check(runs: InlineRun[], expected: [string, string][]): string {
  const markdown = emphasisMarkdown(runs);
  const literal = runs.map((r) => (r.kind === 'text' ? r.text : '')).join('');
  expect({ markdown, spans: formattedSpans(markdown) }).toEqual({ markdown, spans: expected });
  expect(leftoverDelimiters(markdown, literal)).toEqual([]);
  return markdown;
}

describe('emphasisMarkdown', () => {
  it('closes bold before a Korean particle', () => {
    expect(
      check(
        [text('새로운 '), bold('이름'), text('으로')],
        [
          ['새로운 ', ''],
          ['이름', 'b'],
          ['으로', ''],
        ],
      ),
    ).toBe('새로운 **이름**으로');
  });

  it('keeps a quotation mark outside the delimiters when a letter touches the other side', () => {
    expect(
      check(
        [bold('이름'), text('으로'), bold('“누리”가 선정'), text('되었다')],
        [
          ['이름', 'b'],
          ['으로“', ''],
          ['누리”가 선정', 'b'],
          ['되었다', ''],
        ],
      ),
    ).toBe('**이름**으로“**누리”가 선정**되었다');
    expect(
      check(
        [text('학생은 ‘'), bold('누리’'), text('는')],
        [
          ['학생은 ‘', ''],
          ['누리', 'b'],
          ['’는', ''],
        ],
      ),
    ).toBe('학생은 ‘**누리**’는');
  });

  it('keeps punctuation inside when whitespace or punctuation is on the other side', () => {
    expect(
      check(
        [text('말하기를 '), bold('“좋다.”'), text(' 하였다')],
        [
          ['말하기를 ', ''],
          ['“좋다.”', 'b'],
          [' 하였다', ''],
        ],
      ),
    ).toBe('말하기를 **“좋다.”** 하였다');
    check(
      [text('('), italic('see'), text(')')],
      [
        ['(', ''],
        ['see', 'i'],
        [')', ''],
      ],
    );
  });

  it('writes punctuation alone without delimiters when none would be read', () => {
    expect(check([text('가'), bold('“”'), text('나')], [['가“”나', '']])).toBe('가“”나');
  });

  it('moves spaces out of the delimiters', () => {
    expect(
      check(
        [text('공모에는'), bold(' 약 6,300여명의 '), bold('국민이 참여'), text('하여')],
        [
          ['공모에는 ', ''],
          ['약 6,300여명의 국민이 참여', 'b'],
          ['하여', ''],
        ],
      ),
    ).toBe('공모에는 **약 6,300여명의 국민이 참여**하여');
  });

  it('merges adjacent runs of the same style and drops empty ones', () => {
    expect(
      check(
        [bold('한국형발사체'), bold(''), bold('(KSLV-2)'), text(''), bold('의 이름')],
        [['한국형발사체(KSLV-2)의 이름', 'b']],
      ),
    ).toBe('**한국형발사체(KSLV-2)의 이름**');
    expect(check([bold('a'), text(' '), bold('b')], [['a b', 'b']])).toBe('**a b**');
  });

  it('nests bold and italic, the longer span outside', () => {
    expect(
      check(
        [text('x '), text('both', { bold: true, italic: true }), text(' y')],
        [
          ['x ', ''],
          ['both', 'bi'],
          [' y', ''],
        ],
      ),
    ).toBe('x ***both*** y');
    check(
      [bold('굵게 '), text('둘 다', { bold: true, italic: true }), bold(' 굵게')],
      [
        ['굵게 ', 'b'],
        ['둘 다', 'bi'],
        [' 굵게', 'b'],
      ],
    );
    check(
      [italic('a'), bold('b'), text('c', { bold: true, italic: true }), italic('d')],
      [
        ['a', 'i'],
        ['b', 'b'],
        ['c', 'bi'],
        ['d', 'i'],
      ],
    );
  });

  it('writes emphasis inside a word with asterisks', () => {
    expect(
      check(
        [text('snake_'), italic('case'), text('_name')],
        [
          ['snake_', ''],
          ['case', 'i'],
          ['_name', ''],
        ],
      ),
    ).toBe('snake\\_*case*\\_name');
    expect(
      check(
        [text('un'), bold('believ'), text('able')],
        [
          ['un', ''],
          ['believ', 'b'],
          ['able', ''],
        ],
      ),
    ).toBe('un**believ**able');
  });

  it('drops a strikethrough that would meet bold inside a word', () => {
    check(
      [text('a'), text('b', { bold: true, strike: true }), text('c')],
      [
        ['a', ''],
        ['b', 'b'],
        ['c', ''],
      ],
    );
  });

  it('escapes literal asterisks, underscores and tildes only where they could be delimiters', () => {
    expect(check([text('5 * 3 and snake_case')], [['5 * 3 and snake_case', '']])).toBe('5 * 3 and snake_case');
    expect(check([text('*not emphasis* and __init__')], [['*not emphasis* and __init__', '']])).toBe(
      '\\*not emphasis\\* and \\_\\_init\\_\\_',
    );
    expect(check([text('4월 27일~5월 31일, 6월~7월')], [['4월 27일~5월 31일, 6월~7월', '']])).toBe(
      '4월 27일\\~5월 31일, 6월\\~7월',
    );
    expect(check([text('a ** b')], [['a ** b', '']])).toBe('a \\*\\* b');
  });

  it('leaves a single tilde alone unless another in the paragraph could pair with it', () => {
    expect(check([text('저궤도(600km~800km)')], [['저궤도(600km~800km)', '']])).toBe('저궤도(600km~800km)');
    expect(emphasisMarkdown([text('600km~800km')], { tildesPair: true })).toBe('600km\\~800km');
    expect(escapeEmphasis('1~2', { tildesPair: true })).toBe('1\\~2');
    expect(check([text('a ~~ b~')], [['a ~~ b~', '']])).toBe('a \\~\\~ b~');
    expect(
      check(
        [text('a~', { strike: true }), text('b')],
        [
          ['a', 's'],
          ['~b', ''],
        ],
      ),
    ).toBe('~~a~~\\~b');
  });

  it('tells whether single tildes in a paragraph could pair', () => {
    expect(tildesCouldPair(['1~2', '3~4'])).toBe(true);
    expect(tildesCouldPair(['600~800km', 'a ~ b', 'c ~~ d'])).toBe(false);
    expect(tildesCouldPair(['끝~', '~시작'])).toBe(true);
  });

  it('escapes literal asterisks beside delimiters', () => {
    expect(
      check(
        [bold('note*'), text('s')],
        [
          ['note', 'b'],
          ['*s', ''],
        ],
      ),
    ).toBe('**note**\\*s');
    check(
      [text('a'), bold('*b')],
      [
        ['a*', ''],
        ['b', 'b'],
      ],
    );
  });

  it('keeps backslash escapes and raw Markdown as they are, emphasis continuing across raw pieces', () => {
    expect(emphasisMarkdown([bold('a \\[b\\] '), { kind: 'raw', markdown: '$x_1$' }, bold(' c')])).toBe(
      '**a \\[b\\] $x_1$ c**',
    );
    expect(emphasisMarkdown([bold('a'), { kind: 'break', markdown: '\n' }, bold('b')])).toBe('**a**\n**b**');
  });

  it('is plain text when nothing is formatted', () => {
    expect(emphasisMarkdown([text('plain '), text('text')])).toBe('plain text');
    expect(escapeEmphasis('x_y * z')).toBe('x_y * z');
    expect(escapeEmphasis('*')).toBe('\\*');
  });
});

/** A small deterministic generator, so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', '가', '나', '“', '”', '.', '(', ')', ' ', ' ', '*', '_', '~', '!', '’'];

function randomRuns(next: () => number, strike: boolean): InlineRun[] {
  const runs: InlineRun[] = [];
  const count = 1 + Math.floor(next() * 6);
  for (let r = 0; r < count; r++) {
    let value = '';
    const length = Math.floor(next() * 5);
    for (let i = 0; i < length; i++) value += ALPHABET[Math.floor(next() * ALPHABET.length)];
    runs.push(text(value, { bold: next() < 0.5, italic: next() < 0.4, strike: strike && next() < 0.3 }));
  }
  return runs;
}

/** Formatting each character of the runs asks for. */
function wantedChars(runs: InlineRun[]): FormattedChar[] {
  return runs.flatMap((run) =>
    run.kind === 'text'
      ? [...run.text].map((char) => ({
          char,
          flags: `${run.bold ? 'b' : ''}${run.italic ? 'i' : ''}${run.strike ? 's' : ''}`,
        }))
      : [],
  );
}

/**
 * Where the parse of the written runs differs from what they ask for, or undefined. The parse must
 * show exactly the runs' text and no character may gain formatting; with `lettersKeep`, letters
 * must also keep all of theirs, so that only punctuation at a span's end, or a span of nothing but
 * punctuation, may lose it.
 */
function mismatch(runs: InlineRun[], lettersKeep: boolean): object | undefined {
  const markdown = emphasisMarkdown(runs);
  const wanted = wantedChars(runs);
  const got = formattedChars(markdown.trim());
  const text = wanted
    .map((c) => c.char)
    .join('')
    .trim();
  if (got.map((c) => c.char).join('') !== text) return { markdown, text };
  const offset = wanted.findIndex((c) => c.char !== ' ');
  const at = got.findIndex(({ char, flags }, i) => {
    const asked = wanted[offset + i].flags;
    if (char === ' ') return false;
    const gained = [...flags].some((f) => !asked.includes(f));
    return gained || (lettersKeep && /[\p{L}\p{N}]/u.test(char) && flags !== asked);
  });
  return at < 0 ? undefined : { markdown, at, ...got[at], asked: wanted[offset + at].flags };
}

describe('emphasisMarkdown on generated runs', () => {
  const cases = (strike: boolean) => {
    const next = random(strike ? 7 : 3);
    return Array.from({ length: 3000 }, () => randomRuns(next, strike));
  };

  it('reads back as the runs ask, letters keeping all their bold and italic', () => {
    for (const runs of cases(false)) expect({ runs, mismatch: mismatch(runs, true) }).toEqual({ runs });
  });

  it('never shows a delimiter or adds formatting when strikethrough is mixed in', () => {
    for (const runs of cases(true)) expect({ runs, mismatch: mismatch(runs, false) }).toEqual({ runs });
  });
});
