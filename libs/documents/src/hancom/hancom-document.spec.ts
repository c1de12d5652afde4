import type { Block as ModelBlock } from '@docconv/model';
import { hancomDocument } from './hancom-document';
import type { Block, Inline, Paragraph, Table } from './model';

const body = (...inlines: (Inline | string)[]): Paragraph => ({
  type: 'paragraph',
  role: { kind: 'body' },
  label: '',
  inlines: inlines.map((inline) => (typeof inline === 'string' ? { type: 'text', text: inline } : inline)),
});

const blocksOf = (blocks: Block[]): ModelBlock[] =>
  hancomDocument({ sections: [{ blocks, headers: [], footers: [] }] }, '보고서.hwp').blocks;

describe('hancomDocument', () => {
  it('builds headings with the outline number, plain runs and provenance from the file', () => {
    const heading: Paragraph = { ...body('개요 *별표*'), role: { kind: 'heading', level: 2 }, label: '1.' };
    const [block] = blocksOf([heading]);
    expect(block).toEqual({
      type: 'heading',
      level: 2,
      content: [
        { kind: 'text', text: '1. ' },
        { kind: 'text', text: '개요 *별표*' },
      ],
      from: { file: '보고서.hwp' },
    });
  });

  it('keeps a merged cell’s spans and each cell’s own runs, and drops the row a merge runs across', () => {
    const table: Table = {
      type: 'table',
      rows: 3,
      cols: 2,
      cells: [
        { row: 0, col: 0, rowSpan: 3, colSpan: 1, blocks: [body({ type: 'text', text: '구분', bold: true })] },
        { row: 0, col: 1, rowSpan: 2, colSpan: 1, blocks: [body('가'), body('나')] },
        { row: 2, col: 1, rowSpan: 1, colSpan: 1, blocks: [body('다')] },
      ],
    };
    const [block] = blocksOf([body({ type: 'table', table })]);
    expect(block).toEqual({
      type: 'table',
      headerRows: 1,
      rows: [
        [
          { content: [{ kind: 'text', text: '구분', bold: true }], rowspan: 2, colspan: 1 },
          {
            content: [{ kind: 'text', text: '가' }, { kind: 'break' }, { kind: 'text', text: '나' }],
            rowspan: 1,
            colspan: 1,
          },
        ],
        [{ content: [{ kind: 'text', text: '다' }], rowspan: 1, colspan: 1 }],
      ],
      from: { file: '보고서.hwp' },
    });
  });

  it('makes equations inline math, notes footnotes at the end, and an author’s picture description a figure', () => {
    const blocks = blocksOf([
      body('속도는', { type: 'equation', script: 'd over t' }, '이다', {
        type: 'note',
        kind: 'footnote',
        blocks: [body('정의')],
      }),
      body({ type: 'image', alt: '발사체 단면도' }),
    ]);
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'figure', 'footnote']);
    expect(blocks[0]).toMatchObject({
      content: expect.arrayContaining([
        { kind: 'math', tex: '\\frac{d}{t}' },
        { kind: 'note', label: '1' },
      ]) as unknown,
    });
    expect(blocks[1]).toMatchObject({ type: 'figure', alt: '발사체 단면도' });
    expect(blocks[2]).toMatchObject({ type: 'footnote', label: '1', content: [{ kind: 'text', text: '정의' }] });
  });

  it('nests bulleted paragraphs by their levels relative to the items before them, a list starting at the top', () => {
    const bullet = (level: number, text: string): Paragraph => ({
      ...body(text),
      role: { kind: 'list', level, ordered: false },
      label: '•',
    });
    const blocks = blocksOf([body('앞'), bullet(2, '가'), bullet(2, '나'), bullet(4, '다'), bullet(2, '라')]);
    expect(blocks.map((block) => (block.type === 'list_item' ? block.depth : block.type))).toEqual([
      'paragraph',
      0,
      0,
      1,
      0,
    ]);
  });
});
