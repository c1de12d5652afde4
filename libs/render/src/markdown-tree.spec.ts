import { withoutDroppedCharacters } from '@docconv/characters';
import type { Paragraph } from 'mdast';
import { documentBlocks, type Block, type ListItemBlock } from './document-blocks';
import { htmlTables, htmlText } from './html-tables';
import { sliceRuns } from './markdown-tree';
import { columnNames, filledGrid, gridSlice, tableFromHtml } from './table-model';
import {
  inlineMarkdownText,
  inlineRuns,
  parseMarkdown,
  plainText,
  readMarkdown,
  withoutStrayMarkers,
} from '@docconv/model';

function blocksOf(markdown: string): Block[] {
  return documentBlocks(readMarkdown(markdown, 'test.md'));
}

/** The render blocks of a document holding the given paragraphs and raw HTML blocks (`<…` starts raw HTML). */
function rawBlocksOf(...texts: string[]): Block[] {
  const from = { file: 'test.md' };
  return documentBlocks({
    version: 1,
    blocks: texts.map((text) =>
      text.startsWith('<')
        ? { type: 'raw', from, text }
        : { type: 'paragraph', from, content: [{ kind: 'text', text }] },
    ),
  });
}

describe('parseMarkdown', () => {
  it('parses headings, GFM tables and strikethrough', () => {
    const tree = parseMarkdown('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n');
    expect(tree.children.map((node) => node.type)).toEqual(['heading', 'table', 'paragraph']);
    expect(plainText(tree.children[1])).toBe('ab12');
  });

  it('keeps inline and display LaTeX verbatim, backslash escapes included', () => {
    const markdown = 'Area $\\pi r^2 \\{x\\}$ and $a_1 * b_2$.\n\n$$\n\\frac{1}{2} \\_ \\,\n$$\n';
    const tree = parseMarkdown(markdown);
    expect(plainText(tree.children[0])).toBe('Area $\\pi r^2 \\{x\\}$ and $a_1 * b_2$.');
    expect(plainText(tree.children[1])).toBe('$$\n\\frac{1}{2} \\_ \\,\n$$');
  });

  it('leaves prices alone and still reads Markdown escapes outside math', () => {
    const tree = parseMarkdown('Costs $5 and $10, \\*not emphasis\\*.');
    expect(plainText(tree.children[0])).toBe('Costs $5 and $10, *not emphasis*.');
  });

  it('leaves an unclosed $$ and an unclosed <table> without swallowing what follows', () => {
    const tree = parseMarkdown('$$ is not math here\n\n## Next\n\n<table><tr><td>x\n\nAfter\n');
    expect(tree.children.map((node) => node.type)).toEqual(['paragraph', 'heading', 'html', 'paragraph']);
    expect(plainText(tree.children[3])).toBe('After');
  });

  it('removes characters XML cannot carry', () => {
    expect(withoutDroppedCharacters('a\u0000b\u0007c\td\ne\uD800f')).toBe('abc\td\ne\uFFFDf');
    expect(plainText(parseMarkdown('x\u0001y').children[0])).toBe('xy');
  });

  it('parses text that already holds private-use characters, without setting math aside', () => {
    expect(plainText(parseMarkdown('icon \uE0001\uE001 and $\\{x\\}$').children[0])).toBe(
      'icon \uE0001\uE001 and ${x}$',
    );
  });

  it('does not touch dollar signs inside code', () => {
    const tree = parseMarkdown('`$x\\{$`\n\n```\n$$\n\\{\n```\n');
    expect(plainText(tree.children[0])).toBe('$x\\{$');
    expect(tree.children[1]).toMatchObject({ type: 'code', value: '$$\n\\{' });
  });
});

describe('inlineRuns', () => {
  it('keeps bold, italic, strike, code and links as separate runs', () => {
    const paragraph = parseMarkdown('a **b** *c* ~~d~~ `e` [f](https://x.test)').children[0] as Paragraph;
    const runs = inlineRuns(paragraph.children).filter((run) => run.text.trim() !== '');
    expect(runs).toEqual([
      expect.objectContaining({ text: 'a ', bold: false }),
      expect.objectContaining({ text: 'b', bold: true }),
      expect.objectContaining({ text: 'c', italic: true }),
      expect.objectContaining({ text: 'd', strike: true }),
      expect.objectContaining({ text: 'e', code: true }),
      expect.objectContaining({ text: 'f', link: 'https://x.test' }),
    ]);
  });

  it('turns hard breaks and <br> into line breaks and drops inline comments', () => {
    const paragraph = parseMarkdown('one  \ntwo<br>three<!-- note -->').children[0] as Paragraph;
    expect(
      inlineRuns(paragraph.children)
        .map((run) => run.text)
        .join(''),
    ).toBe('one\ntwo\nthree');
  });
});

describe('htmlTables', () => {
  const html = `
    <table>
      <thead><tr><th rowspan="2">Region</th><th colspan=2>Sales</th></tr>
      <tr><th>Q1</th><th>Q2</th></tr></thead>
      <tbody>
        <tr><td>North &amp; East</td><td>10</td><td>20</td></tr>
        <tr><td colspan="2">Total<br/>(all)</td><td>30</td></tr>
      </tbody>
    </table>`;

  it('reads cells with their spans, header flags and decoded text', () => {
    const [table] = htmlTables(html);
    expect(table.rows).toEqual([
      [
        { text: 'Region', rowspan: 2, colspan: 1, header: true },
        { text: 'Sales', rowspan: 1, colspan: 2, header: true },
      ],
      [
        { text: 'Q1', rowspan: 1, colspan: 1, header: true },
        { text: 'Q2', rowspan: 1, colspan: 1, header: true },
      ],
      [
        { text: 'North & East', rowspan: 1, colspan: 1, header: false },
        { text: '10', rowspan: 1, colspan: 1, header: false },
        { text: '20', rowspan: 1, colspan: 1, header: false },
      ],
      [
        { text: 'Total\n(all)', rowspan: 1, colspan: 2, header: false },
        { text: '30', rowspan: 1, colspan: 1, header: false },
      ],
    ]);
  });

  it('closes unclosed cells, rows and tables and finds several tables', () => {
    const tables = htmlTables('<table><tr><td>a<td>b<tr><td>c</table><p>x</p><TABLE><TR><TH>only');
    expect(tables.map((table) => table.rows.map((row) => row.map((cell) => cell.text)))).toEqual([
      [['a', 'b'], ['c']],
      [['only']],
    ]);
  });

  it('flattens a nested table into the text of its cell', () => {
    const [table] = htmlTables(
      '<table><tr><td>outer<table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table>',
    );
    expect(table.rows[0][0].text).toBe('outer\nin1 in2');
  });

  it('clamps absurd spans and ignores invalid ones', () => {
    const [table] = htmlTables('<table><tr><td colspan="99999" rowspan="0">x</td></tr></table>');
    expect(table.rows[0][0]).toMatchObject({ colspan: 1000, rowspan: 1 });
  });

  it('gives the text of HTML without tags or comments', () => {
    expect(htmlText('<div>Hello <b>you</b></div><!-- hidden --><p>Next&nbsp;line</p>')).toBe('Hello you\nNext line');
  });
});

describe('tableFromHtml', () => {
  const [html] = htmlTables(
    '<table><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr><tr><th>Q1</th><th>Q2</th></tr>' +
      '<tr><td rowspan="2">North</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr>' +
      '<tr><td colspan="2">Total</td><td>10</td></tr></table>',
  );
  const table = tableFromHtml(html);

  it('expands spans into a grid with the text in the top-left cell', () => {
    expect(table.header).toEqual([
      ['Region', 'Sales', ''],
      ['', 'Q1', 'Q2'],
    ]);
    expect(table.rows).toEqual([
      ['North', '1', '2'],
      ['', '3', '4'],
      ['Total', '', '10'],
    ]);
    expect(table.merges).toEqual([
      { top: 0, left: 0, bottom: 1, right: 0 },
      { top: 0, left: 1, bottom: 0, right: 2 },
      { top: 2, left: 0, bottom: 3, right: 0 },
      { top: 4, left: 0, bottom: 4, right: 1 },
    ]);
  });

  it('names columns from all header rows', () => {
    expect(columnNames(table)).toEqual(['Region', 'Sales Q1', 'Sales Q2']);
  });

  it('fills merged values down (and across only when asked)', () => {
    expect(filledGrid(table, false).slice(2)).toEqual([
      ['North', '1', '2'],
      ['North', '3', '4'],
      ['Total', '', '10'],
    ]);
    expect(filledGrid(table)[4]).toEqual(['Total', 'Total', '10']);
  });

  it('slices rows, clipping merges and repeating the text of a cut merge', () => {
    const slice = gridSlice(table, 3, 5);
    expect(slice.grid).toEqual([
      ['North', '3', '4'],
      ['Total', '', '10'],
    ]);
    expect(slice.merges).toEqual([{ top: 1, left: 0, bottom: 1, right: 1 }]);
  });

  it('promotes the first row to header when no row is all <th>', () => {
    const [plain] = htmlTables('<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>');
    expect(tableFromHtml(plain)).toEqual({ header: [['a', 'b']], rows: [['1', '2']], merges: [] });
  });

  it('cuts a rowspan that runs past the last row and pads short rows', () => {
    const [ragged] = htmlTables('<table><tr><th>a</th><th>b</th></tr><tr><td rowspan="5">x</td></tr></table>');
    expect(tableFromHtml(ragged)).toEqual({ header: [['a', 'b']], rows: [['x', '']], merges: [] });
  });
});

describe('documentBlocks', () => {
  it('flattens nested lists with levels, numbers and a new id per list', () => {
    const items = blocksOf('- a\n  - b\n    1. c\n    2. d\n- e\n\n3. x\n4. y\n').filter(
      (block): block is ListItemBlock => block.kind === 'listItem',
    );
    expect(items.map(({ text, level, ordered, number }) => ({ text, level, ordered, number }))).toEqual([
      { text: 'a', level: 0, ordered: false, number: 1 },
      { text: 'b', level: 1, ordered: false, number: 1 },
      { text: 'c', level: 2, ordered: true, number: 1 },
      { text: 'd', level: 2, ordered: true, number: 2 },
      { text: 'e', level: 0, ordered: false, number: 2 },
      { text: 'x', level: 0, ordered: true, number: 3 },
      { text: 'y', level: 0, ordered: true, number: 4 },
    ]);
    expect(new Set(items.map((item) => item.list)).size).toBe(4);
  });

  it('drops HTML comments and keeps a raw HTML table whole across blank lines', () => {
    const blocks = rawBlocksOf(
      '<!-- page 1 -->',
      'Before',
      '<table>\n<tr><th>h</th></tr>\n\n<tr><td>1</td></tr>\n\n<tr><td>2</td></tr>\n</table>',
      'After',
    );
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    expect(blocks[1]).toMatchObject({ kind: 'table', table: { header: [['h']], rows: [['1'], ['2']] } });
  });

  it('keeps the text of other raw HTML', () => {
    expect(blocksOf('<div>\n<b>Note</b> this\n</div>\n')).toEqual([
      expect.objectContaining({ kind: 'paragraph', text: 'Note this' }),
    ]);
  });

  it('marks block quotes and task list checkboxes', () => {
    const blocks = blocksOf('> quoted\n\n- [x] done\n- [ ] open\n');
    expect(blocks[0]).toMatchObject({ kind: 'paragraph', quote: true, text: 'quoted' });
    expect(blocks.slice(1).map((block) => ('text' in block ? block.text : ''))).toEqual(['☑ done', '☐ open']);
  });

  it('keeps Hangul text and tables as written', () => {
    const blocks = blocksOf('## 매출\n\n| 지역 | 금액 |\n|---|---|\n| 서울 | 1,000원 |\n');
    expect(blocks[0]).toMatchObject({ kind: 'heading', depth: 2, text: '매출' });
    expect(blocks[1]).toMatchObject({
      kind: 'table',
      table: { header: [['지역', '금액']], rows: [['서울', '1,000원']] },
    });
  });

  it('reads inline Markdown inside raw HTML table cells as text, without its markers', () => {
    const blocks = rawBlocksOf(
      '<table><tr><th>**항목**</th><th>*n*</th></tr><tr><td>[link](http://a.b) `code` ~~old~~</td><td>2*3*4</td></tr></table>',
    );
    expect(blocks[0]).toMatchObject({
      kind: 'table',
      table: { header: [['항목', 'n']], rows: [['link code old', '2*3*4']] },
    });
  });
});

describe('sliceRuns', () => {
  it('cuts runs at character offsets of their joined text, keeping each piece its formatting', () => {
    const plain = { bold: false, italic: false, strike: false, code: false, link: null };
    const runs = [
      { ...plain, text: 'ripe ' },
      { ...plain, text: 'soon', italic: true },
      { ...plain, text: ' now', bold: true },
    ];
    expect(sliceRuns(runs, 2, 7).map(({ text, italic }) => [text, italic])).toEqual([
      ['pe ', false],
      ['so', true],
    ]);
    expect(sliceRuns(runs, 9, 13)).toEqual([{ ...plain, text: ' now', bold: true }]);
  });
});

describe('markup the parser did not read', () => {
  it('never leaves ** or ~~ in text, and keeps underscores that are blanks of a form', () => {
    expect(withoutStrayMarkers('** not bold ** and ~~ open')).toBe(' not bold  and  open');
    expect(withoutStrayMarkers('Name: ______ a__b')).toBe('Name: ______ a__b');
    const runs = inlineRuns((parseMarkdown('a ** b **c** d').children[0] as Paragraph).children);
    expect(runs.map((run) => run.text).join('')).not.toContain('*');
    expect(runs.find((run) => run.bold)?.text).toBe('c');
    expect(inlineMarkdownText('**Total** __x__ ![p](i.png)')).toBe('Total x p');
  });

  it('keeps a picture as a run of its own carrying its source and alt text', () => {
    const runs = inlineRuns((parseMarkdown('See ![a chart](images/f1.png) here').children[0] as Paragraph).children);
    expect(runs).toEqual([
      expect.objectContaining({ text: 'See ' }),
      expect.objectContaining({ text: 'a chart', image: { src: 'images/f1.png', alt: 'a chart' } }),
      expect.objectContaining({ text: ' here' }),
    ]);
  });
});
