import {
  alignment,
  spearman,
  wordSpacing,
  cer,
  codePoints,
  decodeEntities,
  editDistance,
  lcsLength,
  levenshtein,
  normalise,
  nid,
  normalisedSimilarity,
  readingOrderWords,
  similarity,
  substringDistances,
  transcriptWords,
  wer,
} from './metrics';

/** Textbook two-row dynamic programme, the oracle for the bit-parallel version. */
function naive(a: number[], b: number[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('levenshtein', () => {
  it('knows the classic pairs', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('flaw', 'lawn')).toBe(2);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('abc', '')).toBe(3);
    expect(levenshtein('', '')).toBe(0);
    expect(levenshtein('same', 'same')).toBe(0);
  });

  it('counts Hangul syllables and astral characters as one symbol each', () => {
    expect(levenshtein('삼강오륜', '삼강오륜')).toBe(0);
    expect(levenshtein('삼강오륜', '삼강오름')).toBe(1);
    expect(levenshtein('a😀b', 'ab')).toBe(1);
    expect(levenshtein('𠜎𠜱', '𠜎𠝹')).toBe(1);
  });

  it('agrees with the plain dynamic programme on random sequences across block boundaries', () => {
    const next = random(42);
    for (let round = 0; round < 400; round++) {
      const alphabet = 1 + Math.floor(next() * 6);
      const la = Math.floor(next() * 140);
      const lb = Math.floor(next() * 140);
      const a = Array.from({ length: la }, () => Math.floor(next() * alphabet));
      const b = Array.from({ length: lb }, () => Math.floor(next() * alphabet));
      expect(editDistance(a, b)).toBe(naive(a, b));
    }
  });

  it('handles lengths of exactly 31, 32, 33, 64 and 65', () => {
    const next = random(7);
    for (const la of [31, 32, 33, 64, 65]) {
      for (const lb of [1, 32, 33, 70]) {
        const a = Array.from({ length: la }, () => Math.floor(next() * 3));
        const b = Array.from({ length: lb }, () => Math.floor(next() * 3));
        expect(editDistance(a, b)).toBe(naive(a, b));
      }
    }
  });

  it('compares two 50,000-character texts within a few seconds', () => {
    const next = random(1);
    const syllables = '가나다라마바사아자차카타파하삼강오륜 ';
    const a = Array.from({ length: 50_000 }, () => syllables[Math.floor(next() * syllables.length)]).join('');
    const chars = [...a];
    for (let i = 0; i < 2000; i++) chars[Math.floor(next() * chars.length)] = 'x';
    const b = chars.join('');
    const started = Date.now();
    const d = levenshtein(a, b);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThanOrEqual(2000);
  });
});

describe('normalise', () => {
  it('drops Markdown syntax, punctuation, whitespace and case', () => {
    expect(normalise('# Title\n\n**Bold** and _italic_, `code`!')).toBe('titleboldanditaliccode');
    expect(normalise('- item one\n- item two\n* [x] done')).toBe('itemoneitemtwodone');
  });

  it("keeps an ordered item's number, which a reader sees (and a plain-text date opening a line)", () => {
    expect(normalise('1. first\n2) second')).toBe('1first2second');
    expect(normalise('2018. 9. 4.(화) 조간')).toBe('201894화조간');
    expect(normalise('[link text](https://example.com/x) ![alt](data:image/png;base64,AAAA)')).toBe('linktext');
    expect(normalise('<!-- image -->| a | b |\n|---|---|\n| 1 | 2 |')).toBe('ab12');
    expect(normalise('A&amp;B &#x41;')).toBe('aba');
  });

  it('keeps Korean and other scripts and folds compatibility forms', () => {
    expect(normalise('삼강오륜 은 현재까지도.')).toBe('삼강오륜은현재까지도');
    expect(normalise('ＡＢＣ１２３ ﬁne')).toBe('abc123fine');
    expect(normalise('Ελληνικά Straße')).toBe('ελληνικάstraße');
  });
});

describe('similarity', () => {
  it("reads a table with spans in the reference's convention: a merged cell once with its span, or repeated in each slot", () => {
    const spanned =
      '<table>\n<tr><th colspan="2">Class1</th><th>C</th></tr>\n<tr><td rowspan="2">R3</td><td>True</td><td></td></tr>\n<tr><td>False</td><td>x</td></tr>\n</table>';
    const repeated = '| Class1 | Class1 | C |\n| - | - | - |\n| R3 | True |  |\n| R3 | False | x |';
    expect(similarity(spanned, repeated)).toBe(1);
    expect(similarity(spanned, 'Class1 C R3 True False x')).toBe(1); // a plain-text reference names each cell once
    // A cell that is missing, or in another slot, still costs.
    expect(similarity(spanned.replace('<td>x</td>', '<td></td>'), repeated)).toBeLessThan(1);
    expect(similarity(spanned.replace(' colspan="2"', ''), repeated)).toBeLessThan(1);
  });

  it('is 1 for the same text written with different Markdown', () => {
    const markdown = '# Report\n\nThe **quick** brown fox.\n\n- jumps\n- over';
    const plain = 'REPORT\nThe quick brown fox\njumps over';
    expect(similarity(markdown, plain)).toBe(1);
  });

  it('is 0 when nothing survives on one side and 1 when nothing survives on either', () => {
    expect(similarity('', 'some text')).toBe(0);
    expect(similarity('---', '***')).toBe(1);
  });

  it('falls with the edit distance', () => {
    expect(normalisedSimilarity('abcd', 'abcx')).toBeCloseTo(0.75);
    expect(similarity('abcd', 'ab')).toBeCloseTo(0.5);
    expect(similarity('군위신강 임금과 신하', '군위신강 임금과 신화')).toBeCloseTo(1 - 1 / 9);
  });
});

/** Textbook LCS table, the oracle for the bit-parallel version. */
function naiveLcs(a: number[], b: number[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    prev = cur;
  }
  return prev[b.length];
}

/** `count` words of 2–7 letters from an alphabet without q, x, y and z. */
function words(next: () => number, count: number): string[] {
  const letters = 'abcdefghijklmnoprstuvw';
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * letters.length)]).join(''),
  );
}

describe('lcsLength', () => {
  it('knows small cases', () => {
    expect(lcsLength([], [])).toBe(0);
    expect(lcsLength([1, 2, 3], [])).toBe(0);
    expect(lcsLength([1, 2, 3], [1, 2, 3])).toBe(3);
    expect(lcsLength([1, 2, 3, 4], [2, 1, 4, 3])).toBe(2);
    expect(lcsLength([7, 7, 7], [7, 8, 7])).toBe(2);
  });

  it('agrees with the plain dynamic programme on random sequences with repeats, across block boundaries', () => {
    const next = random(2024);
    for (let round = 0; round < 400; round++) {
      const alphabet = 1 + Math.floor(next() * 8);
      const a = Array.from({ length: Math.floor(next() * 160) }, () => Math.floor(next() * alphabet));
      const b = Array.from({ length: Math.floor(next() * 160) }, () => Math.floor(next() * alphabet));
      expect(lcsLength(a, b)).toBe(naiveLcs(a, b));
      expect(lcsLength(b, a)).toBe(naiveLcs(a, b));
    }
  });

  it('handles lengths of exactly 31, 32, 33, 64, 65 and 97 words', () => {
    const next = random(5);
    for (const la of [31, 32, 33, 64, 65, 97]) {
      for (const lb of [1, 32, 33, 65, 130]) {
        const a = Array.from({ length: la }, () => Math.floor(next() * 5));
        const b = Array.from({ length: lb }, () => Math.floor(next() * 5));
        expect(lcsLength(a, b)).toBe(naiveLcs(a, b));
      }
    }
  });

  it('carries across every block when a long run matches', () => {
    const a = Array.from({ length: 200 }, (_, i) => i % 3);
    expect(lcsLength(a, a)).toBe(200);
    expect(lcsLength(a, [...a].reverse())).toBe(naiveLcs(a, [...a].reverse()));
  });
});

describe('readingOrderWords', () => {
  it('drops Markdown syntax and trims punctuation and symbols from the ends of words only', () => {
    expect(readingOrderWords('# Title\n\n**Bold**, "don’t" stop — 3.14!\n\n| A | B |\n|---|---|')).toEqual([
      'title',
      'bold',
      'don’t',
      'stop',
      '3.14',
      'a',
      'b',
    ]);
    expect(readingOrderWords('ＡＢＣ 삼강오륜은. [link](https://x.y)')).toEqual(['abc', '삼강오륜은', 'link']);
  });

  it('reads emphasis inside a word as the word', () => {
    expect(readingOrderWords('새로운 **발사체**의 _이름_ snake_case **bold** text')).toEqual([
      '새로운',
      '발사체의',
      '이름',
      'snakecase',
      'bold',
      'text',
    ]);
  });
});

describe('nid', () => {
  it('is 1 − indel / (|a| + |b|) over words', () => {
    // LCS 3 of 4 + 4 words: indel 2.
    expect(nid('a b c d', 'b a c d')).toBeCloseTo(1 - 2 / 8);
    expect(nid('The **quick** brown fox.', 'the quick brown fox')).toBe(1);
    expect(nid('', '')).toBe(1);
    expect(nid('', 'one word')).toBe(0);
    expect(nid('one', 'two')).toBe(0);
  });

  it('agrees with the plain dynamic programme on texts longer than a block', () => {
    const next = random(11);
    for (let round = 0; round < 50; round++) {
      const vocabulary = words(next, 1 + Math.floor(next() * 12));
      const pick = (): string => vocabulary[Math.floor(next() * vocabulary.length)];
      const a = Array.from({ length: 30 + Math.floor(next() * 120) }, pick);
      const b = Array.from({ length: 30 + Math.floor(next() * 120) }, pick);
      const ids = (ws: string[]): number[] => ws.map((w) => vocabulary.indexOf(w));
      const expected = 1 - (a.length + b.length - 2 * naiveLcs(ids(a), ids(b))) / (a.length + b.length);
      expect(nid(a.join(' '), b.join(' '))).toBeCloseTo(expected, 12);
    }
  });

  it('sees paragraphs in another order where similarity sees the same characters', () => {
    // Both orders spell the same letters once whitespace is gone, so similarity cannot tell them apart.
    const reference = 'Front matter\n\nThe data base\n\nThe database';
    const reordered = 'Front matter\n\nThe database\n\nThe data base';
    expect(similarity(reordered, reference)).toBe(1);
    // Words: front matter the data base the database; the longest common run in order keeps 5 of 7.
    expect(nid(reordered, reference)).toBeCloseTo(1 - (14 - 10) / 14);
  });

  it('charges a moved paragraph twice its words, wherever it moves to', () => {
    const next = random(3);
    const paragraphs = Array.from({ length: 10 }, () => words(next, 30).join(' '));
    const reference = paragraphs.join('\n\n');
    const movedNear = [paragraphs[1], paragraphs[0], ...paragraphs.slice(2)].join('\n\n');
    const movedFar = [...paragraphs.slice(1), paragraphs[0]].join('\n\n');
    // 300 words a side; 30 of them fall out of the common subsequence on each side.
    expect(nid(movedNear, reference)).toBeCloseTo(1 - 60 / 600, 2);
    expect(nid(movedFar, reference)).toBeCloseTo(1 - 60 / 600, 2);
    expect(similarity(movedNear, reference)).toBeLessThan(1);
  });

  it('compares two 50,000-word texts within a few seconds', () => {
    const next = random(8);
    const vocabulary = words(next, 3000);
    const paragraphs = Array.from({ length: 1000 }, () =>
      Array.from({ length: 50 }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' '),
    );
    const reference = paragraphs.join('\n\n');
    const moved = [...paragraphs.slice(500), ...paragraphs.slice(0, 500)].join('\n\n');
    const started = Date.now();
    const score = nid(moved, reference);
    expect(Date.now() - started).toBeLessThan(5000);
    // Half the words stay in order; chance matches add a little.
    expect(score).toBeGreaterThanOrEqual(0.5);
    expect(score).toBeLessThan(0.6);
  });
});

describe('substringDistances', () => {
  it('finds the least distance of the pattern to any substring ending at each position', () => {
    const row = substringDistances(codePoints('abc'), codePoints('xxabcxxabxx'));
    expect(row[5]).toBe(0);
    expect(Math.min(...row)).toBe(0);
    expect(row[9]).toBe(1);
    expect(row[0]).toBe(3);
  });

  it('agrees with a plain dynamic programme', () => {
    const next = random(99);
    for (let round = 0; round < 200; round++) {
      const p = Array.from({ length: 1 + Math.floor(next() * 40) }, () => Math.floor(next() * 3));
      const t = Array.from({ length: Math.floor(next() * 80) }, () => Math.floor(next() * 3));
      const expected = [p.length];
      let prev = Array.from({ length: p.length + 1 }, (_, i) => i);
      for (let j = 1; j <= t.length; j++) {
        const cur = [0];
        for (let i = 1; i <= p.length; i++) {
          cur[i] = Math.min(prev[i] + 1, cur[i - 1] + 1, prev[i - 1] + (p[i - 1] === t[j - 1] ? 0 : 1));
        }
        expected.push(cur[p.length]);
        prev = cur;
      }
      expect([...substringDistances(p, t)]).toEqual(expected);
    }
  });
});

describe('wer and cer', () => {
  it('scores a known pair', () => {
    // One substitution (sat→sit) and one deletion (the) over six reference words.
    expect(wer('the cat sat on the mat', 'the cat sit on mat')).toBeCloseTo(2 / 6);
    // "sat"→"sit" is one character, deleting "the " four: 5 over 22 characters.
    expect(cer('the cat sat on the mat', 'the cat sit on mat')).toBeCloseTo(5 / 22);
  });

  it('ignores case and punctuation, keeps contractions whole', () => {
    expect(wer('Hello, world! Don’t stop.', 'hello world dont stop')).toBe(0);
    expect(transcriptWords("It's 10 o'clock")).toEqual(['its', '10', 'oclock']);
  });

  it('can exceed 1 with insertions and handles empty references', () => {
    expect(wer('one', 'one two three')).toBe(2);
    expect(wer('', '')).toBe(0);
    expect(wer('', 'anything')).toBe(1);
    expect(cer('abc', '')).toBe(1);
  });

  it('works on Korean transcripts', () => {
    expect(wer('친구 사이에는 믿음이 있어야 함', '친구 사이에는 믿음이 있어야 한다')).toBeCloseTo(1 / 5);
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric references and leaves unknown ones', () => {
    expect(decodeEntities('&lt;a&gt; &quot;x&quot; &#48;&#x31; &bogus;')).toBe('<a> "x" 01 &bogus;');
  });
});

describe('wordSpacing', () => {
  const reference = '우리가 독자 개발하여 최초 발사하는 한국형발사체, 국민이 정한 그 이름은 누리';

  it('is perfect when the words are those of the reference, whatever the line breaks and punctuation', () => {
    const score = wordSpacing(
      '# 우리가 독자 개발하여 최초\n발사하는 한국형발사체 국민이 정한 그 이름은 「누리」',
      reference,
    );
    expect(score).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it('sees a space between every syllable', () => {
    const spaced = [...reference.replace(/\s/g, '')].join(' ');
    const score = wordSpacing(spaced, reference)!;
    expect(score.recall).toBe(1);
    expect(score.precision).toBeLessThan(0.35);
    expect(score.f1).toBeLessThan(0.5);
  });

  it('sees words run together', () => {
    const score = wordSpacing(reference.replace(/\s/g, ''), reference)!;
    expect(score.recall).toBe(0);
    expect(score.f1).toBe(0);
  });

  it('leaves places next to a misread syllable to the character similarity', () => {
    // 발사아는 for 발사하는: the places around 아 are not compared, the rest are all right.
    const score = wordSpacing(reference.replace('발사하는', '발사아는'), reference)!;
    expect(score.f1).toBe(1);
    expect(score.compared).toBeGreaterThan(20);
  });

  it('counts a missing and an extra space', () => {
    const score = wordSpacing(
      reference.replace('독자 개발하여', '독자개발하여').replace('한국형발사체', '한국형 발사체'),
      reference,
    )!;
    expect(score.precision).toBeLessThan(1);
    expect(score.recall).toBeLessThan(1);
  });

  it('says nothing about a reference without Hangul', () => {
    expect(wordSpacing('Hello world', 'Hello world')).toBeUndefined();
  });
});

describe('alignment', () => {
  it('matches the symbols of a longest common subsequence, in order', () => {
    const a = [...'kitten'].map((c) => c.charCodeAt(0));
    const b = [...'sitting'].map((c) => c.charCodeAt(0));
    const match = [...alignment(a, b)];
    const pairs = match.flatMap((j, i) => (j >= 0 ? [[i, j]] : []));
    expect(pairs).toHaveLength(4); // i t t n
    for (const [i, j] of pairs) expect(a[i]).toBe(b[j]);
    for (let k = 1; k < pairs.length; k++) expect(pairs[k][1]).toBeGreaterThan(pairs[k - 1][1]);
  });

  it('aligns long texts in linear memory', () => {
    const a = Array.from({ length: 5_000 }, (_, i) => i % 97);
    const b = a.filter((_, i) => i % 50 !== 0);
    const matched = [...alignment(a, b)].filter((j) => j >= 0).length;
    expect(matched).toBe(b.length);
  });
});

describe('spearman', () => {
  it('ranks, with ties sharing their mean rank', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBeCloseTo(-1);
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9487, 3);
  });

  it('is undefined for fewer than three pairs or a side that does not vary', () => {
    expect(spearman([1, 2], [1, 2])).toBeUndefined();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeUndefined();
  });
});
