import type { Block as ModelBlock, Document } from '@docconv/model';
import { documentBlocks, type Block } from './document-blocks';

const from = { file: 'talk.mp3' };

function blocksOf(...blocks: ModelBlock[]): Block[] {
  const document: Document = { version: 1, blocks };
  return documentBlocks(document);
}

function texts(blocks: Block[]): string[] {
  return blocks.map((block) => ('text' in block ? `${block.kind}: ${block.text}` : block.kind));
}

describe('documentBlocks from the model', () => {
  it('writes each kind of block the office files show, and leaves page furniture out', () => {
    const blocks = blocksOf(
      { type: 'furniture', from, role: 'header', text: 'Page 1' },
      { type: 'transcript', from, speaker: 'Ann', content: [{ kind: 'text', text: 'Hello' }] },
      { type: 'formula', from, tex: 'E = mc^2' },
      { type: 'figure', from, src: 'images/a.png', alt: 'A chart' },
      { type: 'footnote', from, label: '1', content: [{ kind: 'text', text: 'A note.', italic: true }] },
      { type: 'separator', from },
      { type: 'raw', from, text: '<p>Before</p><table><tr><th>h</th></tr><tr><td>1</td></tr></table>' },
    );
    expect(texts(blocks)).toEqual([
      'paragraph: Ann: Hello',
      'paragraph: $$\nE = mc^2\n$$',
      'paragraph: A chart',
      'paragraph: [^1]: A note.',
      'rule',
      'paragraph: Before',
      'table',
    ]);
    expect(blocks[2]).toMatchObject({ runs: [{ image: { src: 'images/a.png', alt: 'A chart' } }] });
    expect(blocks[3]).toMatchObject({ runs: [{ text: '[^1]: ' }, { text: 'A note.', italic: true }] });
    expect(blocks[6]).toMatchObject({ table: { header: [['h']], rows: [['1']] } });
  });

  it('leads a transcript block with its start time, as the Markdown does', () => {
    const blocks = blocksOf({
      type: 'transcript',
      from: { file: 'talk.mp3', seconds: [65.9, 70] },
      content: [{ kind: 'text', text: 'Second line' }],
    });
    expect(texts(blocks)).toEqual(['paragraph: [01:05] Second line']);
  });

  it('numbers list items per list: a nested list and a switch between bullets and numbers start new ones', () => {
    const item = (depth: number, text: string, number?: number): ModelBlock => ({
      type: 'list_item',
      from,
      depth,
      content: [{ kind: 'text', text }],
      ...(number === undefined ? {} : { number }),
    });
    const blocks = blocksOf(
      item(0, 'a'),
      item(1, 'b', 1),
      item(1, 'c', 2),
      item(0, 'd'),
      item(0, 'x', 3),
      item(0, 'y', 4),
    );
    expect(blocks.map((block) => (block.kind === 'listItem' ? [block.list, block.number, block.start] : []))).toEqual([
      [0, 1, 1],
      [1, 1, 1],
      [1, 2, 1],
      [0, 2, 1],
      [2, 3, 3],
      [2, 4, 3],
    ]);
  });

  it('keeps the runs and spans of table cells and leaves a plain table without runs', () => {
    const cell = (text: string, bold = false, rowspan = 1) => ({
      content: [{ kind: 'text' as const, text, ...(bold ? { bold } : {}) }],
      rowspan,
      colspan: 1,
    });
    const [formatted] = blocksOf({
      type: 'table',
      from,
      headerRows: 1,
      rows: [[cell('A'), cell('B')], [cell('x', false, 2), cell(' y ', true)], [cell('z')]],
    });
    expect(formatted).toMatchObject({
      table: {
        header: [['A', 'B']],
        rows: [
          ['x', 'y'],
          ['', 'z'],
        ],
        merges: [{ top: 1, left: 0, bottom: 2, right: 0 }],
      },
    });
    expect(formatted.kind === 'table' && formatted.table.runs?.[1][1]).toMatchObject([{ text: 'y', bold: true }]);
    const [plain] = blocksOf({ type: 'table', from, headerRows: 1, rows: [[cell('A')], [cell('x')]] });
    expect(plain.kind === 'table' && plain.table.runs).toBeUndefined();
  });

  it('writes the tables nested in a cell as its text, a row a line, at any depth (office tables do not nest)', () => {
    const cell = (text: string, blocks?: ModelBlock[]) => ({
      content: [{ kind: 'text' as const, text }],
      rowspan: 1,
      colspan: 1,
      blocks,
    });
    const table = (...rows: ReturnType<typeof cell>[][]): ModelBlock => ({ type: 'table', from, headerRows: 0, rows });
    const blocks = blocksOf(table([cell('A'), cell('B', [table([cell('I', [table([cell('E')])]), cell('J')])])]));
    expect(blocks.map((block) => block.kind === 'table' && block.table.rows)).toEqual([[['A', 'B\nI J\nE']]]);
  });

  it('reads a raw block of Markdown a reader writes itself (a chart) as Markdown: its table a table, no literal **', () => {
    const chart = '**Sales** (bar chart)\n\n|  | 2024 |\n| --- | --- |\n| Q1 | 5 |';
    const blocks = blocksOf({ type: 'raw', text: chart, from });
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'table']);
    expect(blocks[0]).toMatchObject({
      kind: 'paragraph',
      text: 'Sales (bar chart)',
      runs: [{ text: 'Sales', bold: true }, { text: ' (bar chart)' }],
    });
    expect(blocks[1]).toMatchObject({ kind: 'table', table: { header: [['', '2024']], rows: [['Q1', '5']] } });
  });
});
