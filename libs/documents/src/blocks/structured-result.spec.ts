import { checkStructuredResult } from '../../../../test/support/structured-result-check';
import { htmlTableCells, markdownBlocks, readMarkdown, writeMarkdown, type Document } from '@docconv/model';
import type { PlacedPage } from './placement';
import { codePointOffsets, structuredResult } from './structured-result';
import { laidOut } from '../pdf/layout-document';
import { page as textPage, run } from '../pdf/testing/text-runs';

const slice = (markdown: string, block: { start: number; end: number }) => markdown.slice(block.start, block.end);

describe('markdownBlocks', () => {
  it('types each block and spans exactly its Markdown', () => {
    const markdown = [
      '# Title',
      'A paragraph with **bold** and a [link](https://example.com).',
      '- one\n  - nested\n- two',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '![A chart of sales](images/p1-1.png)',
      '$$\nE = mc^2\n$$',
      '```python\nprint(1)\n```',
      '> quoted',
      '---',
      'Text[^1]',
      '[^1]: The note.',
    ].join('\n\n');
    const blocks = markdownBlocks(markdown);
    expect(blocks.map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'list_item',
      'list_item',
      'list_item',
      'table',
      'figure',
      'formula',
      'code',
      'quote',
      'separator',
      'paragraph',
      'footnote',
    ]);
    expect(blocks[0]).toMatchObject({ level: 1, text: 'Title' });
    expect(blocks[1].text).toBe('A paragraph with bold and a link.');
    expect(slice(markdown, blocks[1])).toBe('A paragraph with **bold** and a [link](https://example.com).');
    // A list item's span stops where its nested list begins; the nested item is a block of its own.
    expect(slice(markdown, blocks[2])).toBe('- one');
    expect(blocks[3]).toMatchObject({ text: 'nested' });
    expect(blocks[5].cells).toEqual([
      { row: 0, column: 0, rowspan: 1, colspan: 1, header: true, text: 'a' },
      { row: 0, column: 1, rowspan: 1, colspan: 1, header: true, text: 'b' },
      { row: 1, column: 0, rowspan: 1, colspan: 1, header: false, text: '1' },
      { row: 1, column: 1, rowspan: 1, colspan: 1, header: false, text: '2' },
    ]);
    expect(blocks[6]).toMatchObject({ caption: 'A chart of sales', image: 'images/p1-1.png' });
    expect(blocks[7].text).toBe('E = mc^2');
    expect(blocks[8]).toMatchObject({ language: 'python', text: 'print(1)' });
  });

  it('lists the blocks of an uploaded Markdown file, whose document is its Markdown read back', () => {
    const markdown = '# Notes\n\n| Item | Count |\n| --- | --- |\n| Pages | 1 |\n';
    const document = readMarkdown(markdown, 'notes.md');
    const result = structuredResult(writeMarkdown(document), [
      { file: 'notes.md', kind: 'markdown', start: 0, end: markdown.length, headed: false, document },
    ]);
    expect(result.blocks.map((block) => [block.type, block.text, block.position])).toEqual([
      ['heading', 'Notes', { paragraph: 1 }],
      ['table', 'Item Count Pages 1', { paragraph: 2 }],
    ]);
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
  });

  it('reads the grid of an HTML table with merged cells', () => {
    const cells = htmlTableCells(
      '<table><tr><th rowspan="2">Year</th><th colspan="2">Sales</th></tr><tr><td>EU &amp; UK</td><td>US</td></tr></table>',
    );
    expect(cells?.map((c) => [c.row, c.column, c.rowspan, c.colspan, c.text])).toEqual([
      [0, 0, 2, 1, 'Year'],
      [0, 1, 1, 2, 'Sales'],
      [1, 1, 1, 1, 'EU & UK'],
      [1, 2, 1, 1, 'US'],
    ]);
    expect(htmlTableCells('<div>not a table</div>')).toBeUndefined();
  });
});

describe('structuredResult', () => {
  const page: PlacedPage = {
    page: 1,
    width: 600,
    height: 800,
    lines: [
      { text: 'Quarterly report', box: [50, 40, 300, 64] },
      { text: 'Sales rose in every region this', box: [50, 100, 550, 112] },
      { text: 'quarter, led by Europe.', box: [50, 114, 300, 126] },
    ],
    furniture: [
      { text: 'ACME confidential', box: [50, 10, 200, 20] },
      { text: '1', box: [295, 770, 305, 780] },
    ],
  };

  it('places PDF blocks on their page by their lines, keeps page furniture out of the Markdown, and passes the checker', () => {
    const markdown =
      '## report.pdf\n\n# Quarterly report\n\nSales rose in every region this quarter, led by Europe.\n\n---\n';
    const result = structuredResult(markdown, [
      {
        file: 'report.pdf',
        kind: 'pdf',
        start: 0,
        end: markdown.length,
        headed: true,
        pages: [page],
        reports: [{ page: 1, source: 'ocr', engine: 'tesseract', confidence: 91.5 }],
      },
    ]);
    expect(result.blocks.map((b) => [b.type, b.text, b.markdown === null])).toEqual([
      ['page_header', 'ACME confidential', true],
      ['heading', 'report.pdf', false],
      ['heading', 'Quarterly report', false],
      ['paragraph', 'Sales rose in every region this quarter, led by Europe.', false],
      ['separator', '', false],
      ['page_footer', '1', true],
    ]);
    const [, fileHeading, title, paragraph, separator] = result.blocks;
    expect(title).toMatchObject({ page: 1, box: [50, 40, 300, 64], engine: 'tesseract', confidence: 91.5 });
    expect(paragraph.box).toEqual([50, 100, 550, 126]);
    // No line carries the file's heading or the separator: the band around them, marked estimated.
    expect(fileHeading).toMatchObject({ box: [0, 0, 600, 40], box_estimated: true });
    expect(separator).toMatchObject({ box: [0, 126, 600, 800], box_estimated: true });
    expect(result.pages).toEqual([
      {
        file: 'report.pdf',
        page: 1,
        width: 600,
        height: 800,
        unit: 'pt',
        source: 'ocr',
        engine: 'tesseract',
        confidence: 91.5,
      },
    ]);
    const check = checkStructuredResult(markdown, result);
    expect(check).toEqual({ problems: [], coverage: 1, blocks: 6 });
  });

  it("places a PDF's blocks by the document's provenance, at the offsets its writer gave them, without text matching", () => {
    const body = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => run(`Body line ${i} of running text on the page.`, 40, from + i * 12));
    const pages = [
      textPage([
        run('Running head', 40, 30, 8),
        run('Results', 40, 80, 16),
        ...body(120, 4),
        run('Running head', 40, 780, 8),
      ]),
      textPage([run('Running head', 40, 30, 8), ...body(120, 3), run('Running head', 40, 780, 8)]),
    ].map((p, i) => ({ ...p, number: i + 1 }));
    const laid = laidOut(pages, 'report.pdf');
    // A job of several files heads each file's part with its name.
    const markdown = `## report.pdf\n\n${laid.markdown.trim()}\n`;
    const result = structuredResult(markdown, [
      {
        file: 'report.pdf',
        kind: 'pdf',
        start: 0,
        end: markdown.length,
        headed: true,
        pages: laid.placed,
        reports: [
          { page: 1, source: 'text' },
          { page: 2, source: 'text' },
        ],
        document: laid.document,
      },
    ]);
    const written = result.blocks.filter((b) => b.markdown !== null);
    expect(written.map((b) => [b.type, b.page])).toEqual([
      ['heading', 1],
      ['heading', 1],
      ['paragraph', 1],
      ['paragraph', 2],
    ]);
    const [fileHeading, heading, first, second] = written;
    expect(fileHeading.box_estimated).toBe(true);
    // Each box is its block's provenance: the union of its lines' boxes, a size above each baseline to a quarter below.
    const provenance = laid.document.blocks.filter((b) => b.type !== 'furniture').map((b) => b.from.box);
    expect([heading.box, first.box, second.box]).toEqual(provenance);
    expect(heading.box).toEqual([40, 64, 96, 84]);
    expect(first.box).toEqual([40, 110, 40 + 40 * 5, 158.5]);
    for (const block of [heading, first, second]) expect(block.box_estimated).toBeUndefined();
    const slice = (b: (typeof written)[number]) => markdown.slice(b.markdown![0], b.markdown![1]);
    expect(slice(heading)).toBe('# Results');
    expect(slice(second)).toBe(
      'Body line 0 of running text on the page. Body line 1 of running text on the page. Body line 2 of running text on the page.',
    );
    expect(result.blocks.filter((b) => b.markdown === null).map((b) => [b.type, b.page])).toEqual([
      ['page_header', 1],
      ['page_footer', 1],
      ['page_header', 2],
      ['page_footer', 2],
    ]);
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
  });

  it('gives a table running over pages every page it stands on, and each of its cells its own page and box', () => {
    const rows = (from: number, y: number) =>
      [0, 1, 2, 3].flatMap((i) => [
        run(`Item ${from + i}`, 40, y + i * 14),
        run(`${(from + i) * 10}`, 200, y + i * 14),
      ]);
    const header = (y: number) => [run('Name', 40, y), run('Price', 200, y)];
    const pages = [
      textPage([run('Prices as listed in the catalogue.', 40, 600), ...header(640), ...rows(1, 654)]),
      textPage([...header(60), ...rows(5, 74), run('Prices include tax.', 40, 200)]),
    ].map((p, i) => ({ ...p, number: i + 1 }));
    const laid = laidOut(pages, 'prices.pdf');
    const result = structuredResult(laid.markdown, [
      {
        file: 'prices.pdf',
        kind: 'pdf',
        start: 0,
        end: laid.markdown.length,
        headed: false,
        pages: laid.placed,
        reports: [
          { page: 1, source: 'text' },
          { page: 2, source: 'text' },
        ],
        document: laid.document,
      },
    ]);
    const table = result.blocks.find((b) => b.type === 'table');
    expect(table).toMatchObject({ page: 1, pages: [1, 2] });
    const cell = (text: string) => table?.cells?.find((c) => c.text === text);
    expect(cell('Item 4')).toMatchObject({ row: 4, column: 0, page: 1, box: [40, 686, expect.any(Number), 698.5] });
    expect(cell('Item 5')).toMatchObject({ row: 5, column: 0, page: 2, box: [40, 64, expect.any(Number), 76.5] });
    expect(checkStructuredResult(laid.markdown, result).problems).toEqual([]);
  });

  it('counts offsets in code points, and gives office files their slide, sheet or block number', () => {
    const deck = '## Intro 😀\n\nHello\n\n## Plan\n\nSteps\n';
    const sheet = '## Budget\n\n| a |\n|---|\n| 1 |\n';
    const markdown = `${deck}\n${sheet}`;
    const result = structuredResult(markdown, [
      { file: 'deck.pptx', kind: 'pptx', start: 0, end: deck.length, headed: false },
      { file: 'book.xlsx', kind: 'xlsx', start: deck.length + 1, end: markdown.length, headed: false },
    ]);
    expect(result.blocks.map((b) => [b.text, b.position])).toEqual([
      ['Intro 😀', { slide: 1 }],
      ['Hello', { slide: 1 }],
      ['Plan', { slide: 2 }],
      ['Steps', { slide: 2 }],
      ['Budget', { sheet: 'Budget' }],
      ['a 1', { sheet: 'Budget' }],
    ]);
    // The emoji is two UTF-16 units and one code point: every offset after it is one less.
    expect(result.blocks[1].markdown).toEqual([12, 17]);
    expect(Array.from(markdown).slice(12, 17).join('')).toBe('Hello');
    expect(result.markdown.length).toBe(Array.from(markdown).length);
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
  });

  it('gives blocks of a document without pages their slide, sheet, seconds or number from provenance', () => {
    const text = (value: string) => [{ kind: 'text' as const, text: value }];
    const parts: { file: string; kind: 'pptx' | 'xlsx' | 'audio' | 'docx'; document: Document }[] = [
      {
        file: 'deck.pptx',
        kind: 'pptx',
        document: {
          version: 1,
          blocks: [
            { type: 'heading', level: 2, content: text('Plan'), from: { file: 'deck.pptx', slide: 2 } },
            { type: 'paragraph', content: text('Steps'), from: { file: 'deck.pptx', slide: 2 } },
          ],
        },
      },
      {
        file: 'book.xlsx',
        kind: 'xlsx',
        document: {
          version: 1,
          blocks: [
            { type: 'heading', level: 2, content: text('Budget'), from: { file: 'book.xlsx', sheet: 'Budget' } },
          ],
        },
      },
      {
        file: 'talk.mp3',
        kind: 'audio',
        document: {
          version: 1,
          blocks: [{ type: 'paragraph', content: text('Hello all.'), from: { file: 'talk.mp3', seconds: [61.5, 64] } }],
        },
      },
      {
        file: 'notes.docx',
        kind: 'docx',
        document: {
          version: 1,
          blocks: [
            { type: 'paragraph', content: text('First.'), from: { file: 'notes.docx' } },
            { type: 'paragraph', content: text('Second.'), from: { file: 'notes.docx' } },
          ],
        },
      },
    ];
    // A job of several files: each part opens with a heading naming its file.
    let markdown = '';
    const sources = parts.map((part) => {
      const start = markdown.length;
      markdown += `## ${part.file}\n\n${writeMarkdown(part.document)}\n`;
      return { file: part.file, kind: part.kind, start, end: markdown.length, headed: true, document: part.document };
    });
    const result = structuredResult(markdown, sources);
    expect(result.blocks.map((b) => [b.text, b.position])).toEqual([
      ['deck.pptx', { paragraph: 1 }],
      ['Plan', { slide: 2 }],
      ['Steps', { slide: 2 }],
      ['book.xlsx', { paragraph: 1 }],
      ['Budget', { sheet: 'Budget' }],
      ['talk.mp3', { paragraph: 1 }],
      ['Hello all.', { start_seconds: 61.5 }],
      ['notes.docx', { paragraph: 1 }],
      ['First.', { paragraph: 2 }],
      ['Second.', { paragraph: 3 }],
    ]);
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
    delete result.blocks[2].position;
    expect(checkStructuredResult(markdown, result).problems).toEqual([expect.stringMatching(/block 2 .*no position/)]);
  });

  it('converts UTF-16 offsets to code points', () => {
    const at = codePointOffsets('a😀b𝔸c');
    expect([0, 1, 3, 4, 6, 7].map(at)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('the checker sees a span that misses its text, a box off the page and a block with no page', () => {
    const markdown = '# Title\n\nBody text here.\n';
    const result = structuredResult(markdown, [
      {
        file: 'a.pdf',
        kind: 'pdf',
        start: 0,
        end: markdown.length,
        headed: false,
        pages: [{ ...page, furniture: [] }],
      },
    ]);
    result.blocks[0].markdown = [9, 13];
    result.blocks[1].box = [0, 0, 700, 10];
    const check = checkStructuredResult(markdown, result);
    expect(check.problems).toEqual([
      expect.stringMatching(/block 0 .*word "Title" is not in its span/),
      expect.stringMatching(/block 1 .*outside its page/),
    ]);
    delete result.blocks[1].page;
    expect(checkStructuredResult(markdown, result).problems[1]).toMatch(/block 1 .*no page or box/);
  });
});
