import { contentText, writeMarkdown, type Block } from '@docconv/model';
import { layoutModel } from './layout-document';
import { tableLine } from './model-blocks';
import { page, run } from './testing/text-runs';

const numbered = (pages: ReturnType<typeof page>[]) => pages.map((p, i) => ({ ...p, number: i + 1 }));
const text = (block: Block) => ('content' in block ? contentText(block.content) : '');

describe('the PDF layout as a document', () => {
  it('gives plain text, escaped only by the writer, and each block its page and the box of its lines', () => {
    const document = layoutModel(
      numbered([page([run('Results', 40, 80, 16), run('5 * 3 is *not* [x](y), see #2.', 40, 120)])]),
      'report.pdf',
    );
    const [heading, paragraph] = document.blocks;
    expect(heading).toMatchObject({
      type: 'heading',
      level: 1,
      from: { file: 'report.pdf', page: 1, box: [40, 64, 96, 84] },
    });
    expect(text(paragraph)).toBe('5 * 3 is *not* [x](y), see #2.');
    expect(paragraph.from).toEqual({ file: 'report.pdf', page: 1, box: [40, 110, 40 + 30 * 5, 122.5] });
    expect(writeMarkdown(document)).toBe('# Results\n\n5 * 3 is \\*not\\* [x\\](y), see #2.\n');
  });

  it('makes a table going on over a page break one table block, its later page in its provenance', () => {
    const rows = (from: number, y: number, count: number) =>
      Array.from({ length: count }, (_, i) => [
        run(`Item ${from + i}`, 40, y + i * 14),
        run(`${(from + i) * 10}`, 200, y + i * 14),
      ]).flat();
    const header = (y: number) => [run('Name', 40, y), run('Price', 200, y)];
    const document = layoutModel(
      numbered([
        page([run('Prices as listed in the catalogue.', 40, 600), ...header(640), ...rows(1, 654, 4)]),
        page([...header(60), ...rows(5, 74, 4), run('Prices include tax.', 40, 200)]),
      ]),
      'prices.pdf',
    );
    const tables = document.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    const [table] = tables;
    if (table.type !== 'table') throw new Error('not a table');
    expect(table.headerRows).toBe(1);
    expect(table.rows.map((row) => row.map((cell) => contentText(cell.content)))).toEqual([
      ['Name', 'Price'],
      ...Array.from({ length: 8 }, (_, i) => [`Item ${i + 1}`, `${(i + 1) * 10}`]),
    ]);
    expect(table.from).toMatchObject({ file: 'prices.pdf', page: 1, continues: [2] });
    // Each cell stands on its own page, in its column from its row's type to its foot.
    const [item1, price1] = table.rows[1];
    expect(item1).toMatchObject({ page: 1, box: [40, 644, expect.any(Number), 656.5] });
    expect(price1).toMatchObject({ page: 1, box: [item1.box![2], 644, 225, 656.5] }); // to the header's right edge
    expect(table.rows[5][0]).toMatchObject({ page: 2, box: [40, 64, item1.box![2], 76.5] });
    expect(item1.box![2]).toBeGreaterThan(40 + 6 * 5);
    expect(item1.box![2]).toBeLessThan(200);
  });

  it('joins a ruled table with spanning header cells to its continuation, its repeated header left out', () => {
    const cell = (text: string, rowspan = 1, colspan = 1) => ({ text, rowspan, colspan });
    const header = [
      [cell('Fruit', 2), cell('Price', 1, 2)],
      [cell('2025'), cell('2026')],
    ];
    const body = (from: number) =>
      [0, 1].map((i) => [cell(`Item ${from + i}`), cell(`${from + i}.10`), cell(`${from + i}.20`)]);
    const ruled = (rows: ReturnType<typeof cell>[][], top: number) =>
      tableLine({ top, bottom: top + rows.length * 20, left: 40, right: 400, rows, size: 10 });
    const document = layoutModel(
      numbered([
        {
          width: 600,
          height: 800,
          lines: [...page([run('Prices by year.', 40, 600)]).lines, ruled([...header, ...body(1)], 640)],
        },
        {
          width: 600,
          height: 800,
          lines: [ruled([...header, ...body(3)], 60), ...page([run('Prices include tax.', 40, 300)]).lines],
        },
      ]),
      'prices.pdf',
    );
    const tables = document.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    const [table] = tables;
    if (table.type !== 'table') throw new Error('not a table');
    expect(table.rows.map((row) => row.map((c) => contentText(c.content)))).toEqual([
      ['Fruit', 'Price'],
      ['2025', '2026'],
      ...[1, 2, 3, 4].map((n) => [`Item ${n}`, `${n}.10`, `${n}.20`]),
    ]);
    expect(table.from).toMatchObject({ page: 1, continues: [2] });
    // A table of other columns on the next page stays a table of its own.
    const other = layoutModel(
      numbered([
        { width: 600, height: 800, lines: [ruled([...header, ...body(1)], 640)] },
        {
          width: 600,
          height: 800,
          lines: [
            ruled(
              [
                [cell('Name'), cell('Total')],
                [cell('A'), cell('1')],
              ],
              60,
            ),
          ],
        },
      ]),
      'prices.pdf',
    );
    expect(other.blocks.filter((b) => b.type === 'table')).toHaveLength(2);
  });

  it('keeps a list item’s own label, and footnotes as note references and footnote blocks', () => {
    const body = Array.from({ length: 6 }, (_, i) =>
      run(`Body line ${i} of running text on the page.`, 40, 100 + i * 12),
    );
    const document = layoutModel(
      numbered([
        page([
          ...body,
          run('The survey', 40, 200),
          run('1', 90, 196, 6),
          run(' found what it found.', 93, 200),
          run('(a) first point', 40, 240),
          run('1', 40, 700, 5),
          run('Survey of 2026.', 44, 703, 8),
        ]),
      ]),
      'notes.pdf',
    );
    const survey = document.blocks.find((b) => text(b).startsWith('The survey'))!;
    expect(survey.type === 'paragraph' && survey.content).toEqual([
      { kind: 'text', text: 'The survey' },
      { kind: 'note', label: '1' },
      { kind: 'text', text: ' found what it found.' },
    ]);
    expect(document.blocks.find((b) => b.type === 'list_item')).toMatchObject({
      marker: '(a)',
      content: [{ text: 'first point' }],
    });
    expect(document.blocks.find((b) => b.type === 'footnote')).toMatchObject({
      label: '1',
      content: [{ kind: 'text', text: 'Survey of 2026.' }],
      from: { file: 'notes.pdf', page: 1 },
    });
  });
});
