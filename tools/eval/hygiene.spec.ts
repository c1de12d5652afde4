import { HYGIENE_KINDS, hygiene, unreadDelimiters, type HygieneCounts } from './hygiene';

const none: HygieneCounts = {
  controlCharacters: 0,
  replacementCharacters: 0,
  privateUse: 0,
  literalEmphasis: 0,
  pageNumberLines: 0,
};

const counts = (markdown: string): HygieneCounts => hygiene(markdown).counts;
const emphasis = (markdown: string): number => counts(markdown).literalEmphasis;

describe('hygiene', () => {
  it('finds nothing in clean Markdown', () => {
    const clean = [
      '# Report 2024',
      '',
      'The **quick** brown _fox_ jumps over ***the*** lazy dog, tabs\tand all.',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '1. first',
      '2. second',
    ].join('\r\n');
    expect(hygiene(clean)).toEqual({ counts: none, examples: {} });
  });

  it('counts control characters, U+FFFD and private-use characters, with examples on their lines', () => {
    const markdown =
      'fine\nbad\u0002 byte and \u0085 here\nlost \uFFFD char\nicon \uE001 and \u{F0001} and \u{10FFFD}\n';
    const result = hygiene(markdown);
    expect(result.counts).toEqual({ ...none, controlCharacters: 2, replacementCharacters: 1, privateUse: 3 });
    expect(result.examples.controlCharacters).toEqual([
      { line: 2, snippet: 'bad<U+0002> byte and <U+0085> here' },
      { line: 2, snippet: 'bad<U+0002> byte and <U+0085> here' },
    ]);
    expect(result.examples.replacementCharacters).toEqual([{ line: 3, snippet: 'lost \uFFFD char' }]);
    expect(result.examples.privateUse?.[1]).toEqual({ line: 4, snippet: 'icon <U+E001> and <U+F0001> and <U+10FFFD>' });
    expect(result.examples.literalEmphasis).toBeUndefined();
  });

  it('keeps at most three examples, cut to the text around each occurrence', () => {
    const markdown = `${'x'.repeat(100)}\u0001${'y'.repeat(100)}\u0001\u0001\u0001`;
    const result = hygiene(markdown);
    expect(result.counts.controlCharacters).toBe(4);
    expect(result.examples.controlCharacters).toHaveLength(3);
    expect(result.examples.controlCharacters?.[0].snippet).toBe(`…${'x'.repeat(30)}<U+0001>${'y'.repeat(30)}…`);
  });

  it('does not count tab, line feed and carriage return', () => {
    expect(counts('a\tb\r\nc\rd\n').controlCharacters).toBe(0);
  });

  describe('literal emphasis', () => {
    it('counts the bold markers a CommonMark parse leaves in Korean text', () => {
      // `**으로**` parses as bold; the last `**` has nothing to close.
      expect(emphasis('이름**으로**“누리”가 선정**')).toBe(1);
      // A closer after punctuation and before a letter cannot close: both markers stay literal.
      expect(emphasis('개발 중인 **한국형발사체(KSLV-2)의 새로운 이름**으로**“누리”가 선정**되었다고 밝혔다.')).toBe(2);
      expect(hygiene('a\n\n본문 **“누리”**가').examples.literalEmphasis).toEqual([
        { line: 3, snippet: '본문 **“누리”**가' },
        { line: 3, snippet: '본문 **“누리”**가' },
      ]);
    });

    it('counts nothing for emphasis that renders', () => {
      expect(emphasis('**bold** and *italic* and __strong__ and _em_ and ***both***')).toBe(0);
      expect(emphasis('‘**누리’는 ‘세상’의 옛말**로')).toBe(0);
    });

    it('ignores underscores inside words, arithmetic and symbols standing apart', () => {
      expect(emphasis('call snake_case_name, CONST__VALUE or a_b_c_')).toBe(0);
      expect(emphasis('2 * 3 = 6, 2*3*4 = 24, 2**8 = 256 and a ** b')).toBe(0);
    });

    it('counts a double marker standing apart that is no power operator: a reader sees it printed', () => {
      expect(emphasis('A paragraph that ends with a stray **')).toBe(1);
      expect(emphasis('** Total revenue')).toBe(1);
      expect(emphasis('| Revenue __ | 12 |\n| --- | --- |\n| a | b |')).toBe(1);
    });

    it('ignores TeX math and rows of asterisks that touch no word', () => {
      expect(emphasis('$$f(x)=a_{0}+\\sum_{n=1}^{\\infty}a_{n}$$ and inline $A = b_{1} c_{2}$ too')).toBe(0);
      expect(emphasis('$$\nx_{1} + y_{2}\n$$')).toBe(0);
      expect(emphasis("ELSE '*****' END and a rule *********")).toBe(0);
      // Two bold runs written back to back leave their markers joined against the words.
      expect(emphasis('중인 **한국형발사체****(KSLV-2)****의 새로운')).toBeGreaterThan(0);
    });

    it('ignores code, inline code, escapes, raw HTML and autolinks', () => {
      expect(emphasis('Run `a**b` and `_x` here.')).toBe(0);
      expect(emphasis('```\n**not bold\n```\n\n    **indented code')).toBe(0);
      expect(emphasis('Price \\*\\*10\\*\\* and 5 \\* 3')).toBe(0);
      expect(emphasis('<img alt="**x"> and https://example.com/a_b/**/c_ and <https://x.org/_y>')).toBe(0);
    });

    it('counts a lone marker only when it pairs with another as a reader would read them', () => {
      // Footnote marks and wildcards.
      expect(emphasis('Revenue* and costs* rose. *Excluding taxes.')).toBe(0);
      expect(emphasis('Match *.pdf and *.docx files')).toBe(0);
      // Italics that did not parse: an opener followed by a closer.
      expect(emphasis('the *“누리”*가 and more')).toBe(2);
      expect(emphasis('# _Broken title\n\nand_ then')).toBe(0);
      expect(emphasis('_a_b _c')).toBe(0);
    });

    it('counts unbalanced markers in headings and table cells', () => {
      expect(emphasis('## **Summary\n\n| **a | b |\n|---|---|\n| 1 | 2 |')).toBe(2);
    });

    it('counts Markdown markers and escapes inside an HTML table, where nothing renders them', () => {
      const table = (cell: string) => `<table>\n<tr><th colspan="2">${cell}</th></tr>\n</table>`;
      expect(emphasis(table('<strong>Total</strong> and <em>net</em> 2 * 3'))).toBe(0);
      expect(emphasis(table('**Total** and *net*'))).toBe(4);
      expect(emphasis(table('\\*not emphasis\\*'))).toBe(2);
      expect(emphasis(`${table('plain')}\n\nAfter **bold** text.`)).toBe(0);
    });

    it("leaves the document's own marks in an HTML table alone: a lone ** before a figure is printed as it stands", () => {
      const table = (cell: string) => `<table>\n<tr><td>${cell}</td></tr>\n</table>`;
      expect(emphasis(table('**12,760'))).toBe(0);
      expect(emphasis(table('*2,247 and 1,102'))).toBe(0);
      // Paired, they are markers nothing renders.
      expect(emphasis(table('**12,760**'))).toBe(2);
      // In Markdown text an unread ** is a broken marker, alone or not.
      expect(emphasis('Growth of **12,760 units')).toBe(1);
    });
  });

  describe('page-number lines', () => {
    it('counts lines holding only an arabic or roman page number, with or without dashes around', () => {
      const markdown = 'text\n\n- 12 -\n\n  7  \n\nxiv\n\n— IV —\n\n1024\n';
      const result = hygiene(markdown);
      expect(result.counts.pageNumberLines).toBe(5);
      expect(result.examples.pageNumberLines).toEqual([
        { line: 3, snippet: '- 12 -' },
        { line: 5, snippet: '  7  ' },
        { line: 7, snippet: 'xiv' },
      ]);
    });

    it('does not count numbers with other text, list items, mixed-case words or code', () => {
      const markdown = [
        'Page 12',
        '12.',
        '- 12',
        '1. 12',
        'Mix',
        'mild',
        '12345',
        '2002',
        '1899',
        '| 12 |',
        '```',
        '42',
        '```',
        '<div>',
        '3',
        '</div>',
      ].join('\n');
      expect(counts(markdown).pageNumberLines).toBe(0);
    });
  });

  it('reports every kind', () => {
    expect(Object.keys(counts(''))).toEqual([...HYGIENE_KINDS]);
  });
});

describe('unreadDelimiters', () => {
  const found = (markdown: string): string[] => unreadDelimiters(markdown).map((e) => e.snippet);

  it('finds the *, __ and ~~ a parse left in text', () => {
    expect(found('**닫히지 않은 강조')).toHaveLength(1);
    expect(found('발사체****(KSLV-2)')).toHaveLength(1);
    expect(found('a ~~b')).toHaveLength(1);
    expect(found('__x')).toHaveLength(1);
    expect(found('2 * 3')).toHaveLength(1);
    expect(unreadDelimiters('line\n\n**x')[0].line).toBe(3);
  });

  it('leaves alone what was read, escaped, code or a word', () => {
    expect(found('**굵게** *기울임* ~~취소~~ __굵게__')).toEqual([]);
    expect(found('\\* 각주 \\*\\* 2 \\~\\~ 3')).toEqual([]);
    expect(found('`a * b` and\n\n```\n**\n```')).toEqual([]);
    expect(found('snake_case_name')).toEqual([]);
    expect(found('<table><tr><td>**</td></tr></table>')).toEqual([]);
  });
});
