import type { ListItemBlock, ParagraphBlock, TableBlock } from '../document';
import { readMarkdown } from './read-markdown';
import { writeMarkdown } from './write-markdown';

describe('readMarkdown', () => {
  const sample = [
    '# Report *2024*',
    '',
    'Sales rose **12%** in [Q3](https://example.com/q3), see `table 1`.',
    '',
    '- first',
    '  - nested **bold**',
    '3. third',
    '',
    '| Name | **Total** |',
    '| --- | --- |',
    '| a | *1* |',
    '',
    '<table>',
    '<tr><th colspan="2">Head</th></tr>',
    '<tr><td>x</td><td>y</td></tr>',
    '</table>',
    '',
    '> quoted _text_',
    '',
    '![A chart](images/p1-1.png)',
    '',
    '```python',
    'print(1)',
    '```',
    '',
    '$$',
    'E = mc^2',
    '$$',
    '',
    '[^1]: A note.',
    '',
  ].join('\n');

  it('gives back the Markdown byte for byte, blank lines and trailing text included', () => {
    for (const markdown of [sample, sample.trimEnd(), `\n\n${sample}\n\n\n`, '', 'one line', 'a\r\nb\r\n\r\nc']) {
      expect(writeMarkdown(readMarkdown(markdown, 'f.md'))).toBe(markdown);
    }
  });

  it('reads a linked picture in a paragraph as a picture with its link, and writes it back', () => {
    const markdown = 'Home: [![A logo](https://example.com/logo.png)](https://example.com/)\n';
    const { blocks } = readMarkdown(markdown, 'page.html');
    expect((blocks[0] as ParagraphBlock).content).toEqual([
      { kind: 'text', text: 'Home: ' },
      { kind: 'image', src: 'https://example.com/logo.png', alt: 'A logo', link: 'https://example.com/' },
    ]);
    expect(writeMarkdown({ version: 1, blocks: blocks.map(({ written: _, ...block }) => block) })).toBe(markdown);
  });

  it('reads each block with its type, provenance and formatted runs', () => {
    const { blocks } = readMarkdown(sample, 'report.pdf');
    expect(blocks.map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'list_item',
      'list_item',
      'list_item',
      'table',
      'table',
      'paragraph',
      'figure',
      'code',
      'formula',
      'footnote',
    ]);
    expect(blocks.every((b) => b.from.file === 'report.pdf')).toBe(true);
    const paragraph = blocks[1] as ParagraphBlock;
    expect(paragraph.content).toEqual([
      { kind: 'text', text: 'Sales rose ' },
      { kind: 'text', text: '12%', bold: true },
      { kind: 'text', text: ' in ' },
      { kind: 'text', text: 'Q3', link: 'https://example.com/q3' },
      { kind: 'text', text: ', see ' },
      { kind: 'text', text: 'table 1', code: true },
      { kind: 'text', text: '.' },
    ]);
    const items = blocks.slice(2, 5) as ListItemBlock[];
    expect(items.map((i) => [i.depth, i.number])).toEqual([
      [0, undefined],
      [1, undefined],
      [0, 3],
    ]);
    expect(items[1].content).toEqual([
      { kind: 'text', text: 'nested ' },
      { kind: 'text', text: 'bold', bold: true },
    ]);
    const gfm = blocks[5] as TableBlock;
    expect(gfm.headerRows).toBe(1);
    expect(gfm.rows[0][1].content).toEqual([{ kind: 'text', text: 'Total', bold: true }]);
    expect(gfm.rows[1][1].content).toEqual([{ kind: 'text', text: '1', italic: true }]);
    const html = blocks[6] as TableBlock;
    expect(html.rows[0]).toEqual([{ content: [{ kind: 'text', text: 'Head' }], rowspan: 1, colspan: 2 }]);
    expect(html.headerRows).toBe(1);
    expect(blocks[7]).toMatchObject({
      quote: true,
      content: [
        { kind: 'text', text: 'quoted ' },
        { text: 'text', italic: true },
      ],
    });
    expect(blocks[8]).toMatchObject({ type: 'figure', src: 'images/p1-1.png', alt: 'A chart' });
    expect(blocks[9]).toMatchObject({ type: 'code', language: 'python', text: 'print(1)' });
    expect(blocks[10]).toMatchObject({ type: 'formula', tex: 'E = mc^2' });
    expect(blocks[11]).toMatchObject({ type: 'footnote', label: '1', content: [{ kind: 'text', text: 'A note.' }] });
  });

  it('keeps math and escapes literal', () => {
    const { blocks } = readMarkdown('Area $\\{x\\}$ and 5 \\* 3\n', 'f.md');
    expect((blocks[0] as ParagraphBlock).content).toEqual([{ kind: 'text', text: 'Area $\\{x\\}$ and 5 * 3' }]);
  });
});

describe('readMarkdown without markup', () => {
  it('reads plain text as the parser would, line breaks kept', () => {
    const plainText = readMarkdown('first line\n  second line\n', 'f.md').blocks[0] as ParagraphBlock;
    const parsed = readMarkdown('first line\n  second *line*\n', 'f.md').blocks[0] as ParagraphBlock;
    expect(plainText.content).toEqual([
      { kind: 'text', text: 'first line' },
      { kind: 'break' },
      { kind: 'text', text: 'second line' },
    ]);
    expect(parsed.content.slice(0, 3)).toEqual(
      plainText.content.slice(0, 2).concat([{ kind: 'text', text: 'second ' }]),
    );
  });
});

describe('readMarkdown tables', () => {
  it('reads GFM cells as inline text, empty cells kept, escaped pipes literal, rows padded to the header', () => {
    const table = readMarkdown('| a | - **b** | 1. c |\n| --- | --- | --- |\n| x \\| y |  | `z` |\n| only |\n', 'f.md')
      .blocks[0] as TableBlock;
    expect(table.rows.map((row) => row.map((cell) => cell.content))).toEqual([
      [
        [{ kind: 'text', text: 'a' }],
        [
          { kind: 'text', text: '- ' },
          { kind: 'text', text: 'b', bold: true },
        ],
        [{ kind: 'text', text: '1. c' }],
      ],
      [[{ kind: 'text', text: 'x | y' }], [], [{ kind: 'text', text: 'z', code: true }]],
      [[{ kind: 'text', text: 'only' }], [], []],
    ]);
  });
});

describe('readMarkdown headings', () => {
  it('reads a heading without its closing sequence', () => {
    expect(readMarkdown('## Results **2024** ##\n', 'f.md').blocks[0]).toMatchObject({
      type: 'heading',
      level: 2,
      content: [
        { kind: 'text', text: 'Results ' },
        { kind: 'text', text: '2024', bold: true },
      ],
    });
  });
});
