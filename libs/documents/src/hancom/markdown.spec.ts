import { blocksOf, leftoverDelimiters } from '@docconv/model/testing';
import { withPageFurniture, writeMarkdown } from '@docconv/model';
import { hancomDocument } from './hancom-document';
import { hancomMarkdown } from './markdown';
import type { Block, HancomSection, Inline, Paragraph, Table } from './model';

const body = (...inlines: (Inline | string)[]): Paragraph => ({
  type: 'paragraph',
  role: { kind: 'body' },
  label: '',
  inlines: inlines.map((inline) => (typeof inline === 'string' ? { type: 'text', text: inline } : inline)),
});

const section = (blocks: Block[], extra: Partial<HancomSection> = {}): HancomSection => ({
  blocks,
  headers: [],
  footers: [],
  ...extra,
});

const grid = (texts: string[][], caption?: { before: boolean; text: string }): Table => ({
  type: 'table',
  rows: texts.length,
  cols: texts[0].length,
  cells: texts.flatMap((row, r) =>
    row.map((text, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1, blocks: text === '' ? [] : [body(text)] })),
  ),
  ...(caption ? { caption: { before: caption.before, blocks: [body(caption.text)] } } : {}),
});

describe('hancomMarkdown', () => {
  it('writes numbered paragraphs with Hancom’s label as text that no renderer renumbers', () => {
    const numbered = (label: string, text: string): Paragraph => ({
      ...body(text),
      role: { kind: 'list', level: 0, ordered: true },
      label,
    });
    const markdown = hancomMarkdown({ sections: [section([numbered('3.', '셋째'), numbered('가)', '세부')])] });
    expect(markdown).toBe('3\\. 셋째\n\n가) 세부\n');
    expect(blocksOf(markdown)).toEqual(['paragraph: 3. 셋째', 'paragraph: 가) 세부']);
  });

  it('writes bulleted paragraphs as one tight list nested by level, and keeps a long heading-styled paragraph as body text', () => {
    const bullet = (level: number, text: string): Paragraph => ({
      ...body(text),
      role: { kind: 'list', level, ordered: false },
      label: '•',
    });
    const long = { ...body('가'.repeat(130)), role: { kind: 'heading' as const, level: 2 } };
    const markdown = hancomMarkdown({
      sections: [section([bullet(0, '위'), bullet(1, '아래'), bullet(0, '1. 숫자로 시작'), long])],
    });
    expect(markdown).toBe(`- 위\n    - 아래\n- 1\\. 숫자로 시작\n\n${'가'.repeat(130)}\n`);
    expect(blocksOf(markdown)[0]).toBe('list: 위아래1. 숫자로 시작'); // one list; the number is text, not a list inside it
  });

  it('puts a caption on the side Hancom draws it and leaves out a grid with no text', () => {
    const markdown = hancomMarkdown({
      sections: [
        section([
          grid([['항목', '값']], { before: true, text: '표 1 위 캡션' }),
          grid(
            [
              ['', ''],
              ['', ''],
            ],
            { before: false, text: '표 2 빈 표' },
          ),
        ]),
      ],
    });
    expect(markdown).toBe('표 1 위 캡션\n\n| 항목 | 값 |\n| --- | --- |\n\n표 2 빈 표\n');
  });

  it('keeps each distinct header once at the start, footers at the end, notes numbered in order', () => {
    const note = (text: string): Inline => ({ type: 'note', kind: 'footnote', blocks: [body(text)] });
    const header = [body('머리말')];
    const document = {
      sections: [
        section([body('첫째', note('하나'))], { headers: [header], footers: [[body('꼬리말')]] }),
        section([body('둘째', note('둘'))], { headers: [header] }),
      ],
    };
    // Headers and footers are furniture: left out unless the job keeps it.
    expect(hancomMarkdown(document)).toBe('첫째[^1]\n\n---\n\n둘째[^2]\n\n[^1]: 하나\n[^2]: 둘\n');
    expect(writeMarkdown(withPageFurniture(hancomDocument(document, 'a.hwp'), 'keep'))).toBe(
      '머리말\n\n첫째[^1]\n\n---\n\n둘째[^2]\n\n꼬리말\n\n[^1]: 하나\n[^2]: 둘\n',
    );
  });

  it('keeps an author’s picture description, not the one Hancom makes up', () => {
    const markdown = hancomMarkdown({
      sections: [
        section([
          body({ type: 'image', alt: '그림입니다.\n원본 그림의 이름: a.png' }),
          body({ type: 'image', alt: '발사체 단면도' }),
        ]),
      ],
    });
    expect(markdown).toBe('발사체 단면도\n');
  });

  it('writes emphasis CommonMark reads, and nothing a reader would see as a stray marker', () => {
    const markdown = hancomMarkdown({
      sections: [
        section([
          body(
            { type: 'text', text: '이름', bold: false },
            { type: 'text', text: '“누리”', bold: true },
            { type: 'text', text: '가 *별표* 와 ~물결~' },
          ),
        ]),
      ],
    });
    expect(leftoverDelimiters(markdown, '가 *별표* 와 ~물결~')).toEqual([]);
    expect(markdown).toContain('**누리**');
  });

  it('links only addresses a reader can follow, keeping the text of the others', () => {
    const link = (href: string, text: string): Inline => ({ type: 'link', href, inlines: [{ type: 'text', text }] });
    const markdown = hancomMarkdown({
      sections: [section([body(link('https://example.kr/a (b)', '누리집'), ' ', link('javascript:alert(1)', '위험'))])],
    });
    expect(markdown).toBe('[누리집](https://example.kr/a%20%28b%29) 위험\n');
  });

  it('maps Hancom’s private-use characters', () => {
    const markdown = hancomMarkdown({ sections: [section([body('\uF53A글 \uE000')])] });
    expect(markdown).not.toMatch(/[\uE000-\uF8FF]/u);
    expect(markdown).toContain('\u3013');
  });
});
