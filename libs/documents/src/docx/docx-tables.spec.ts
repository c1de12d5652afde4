import { extractDocx } from './extract-docx';
import { DocxFixtures, packageWith, W, type DocxModule } from './testing/docx-fixtures';

const fixtures = new DocxFixtures();
beforeAll(() => fixtures.open());
afterAll(() => fixtures.close());

const write = (bytes: Buffer): Promise<string> => fixtures.write(bytes);

/** Builds a document with the `docx` package and converts it. */
const convert: DocxFixtures['markdown'] = (build) => fixtures.markdown(build);

describe('extractDocx: tables', () => {
  it('writes a table without merged cells as GFM, every row equally wide', async () => {
    const md = await convert(({ Document, Paragraph, Table, TableRow, TableCell }) => {
      const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
      return new Document({
        sections: [
          {
            children: [
              new Table({
                rows: [
                  new TableRow({ children: [cell('Region'), cell('Q1'), cell('Q2')] }),
                  new TableRow({ children: [cell('North'), cell('10'), cell('13 | 14')] }),
                  new TableRow({ children: [cell('Note')] }),
                ],
              }),
            ],
          },
        ],
      });
    });
    expect(md.trim().split('\n')).toEqual([
      '| Region | Q1 | Q2 |',
      '| --- | --- | --- |',
      '| North | 10 | 13 \\| 14 |',
      '| Note |  |  |',
    ]);
  });

  it('writes a table with merged cells as HTML, each merged cell once with its row and column spans', async () => {
    const md = await convert(({ Document, Paragraph, Table, TableRow, TableCell }) => {
      const cell = (text: string, options: { rowSpan?: number; columnSpan?: number } = {}) =>
        new TableCell({ children: [new Paragraph(text)], ...options });
      return new Document({
        sections: [
          {
            children: [
              new Table({
                rows: [
                  new TableRow({ children: [cell('Region'), cell('Sales', { columnSpan: 2 })] }),
                  new TableRow({ children: [cell('North', { rowSpan: 2 }), cell('10'), cell('12')] }),
                  new TableRow({ children: [cell('11'), cell('13 < 14')] }),
                  new TableRow({ children: [cell('Total: 46', { columnSpan: 3 })] }),
                ],
              }),
            ],
          },
        ],
      });
    });
    expect(md).toBe(
      [
        '<table>',
        '<tr><th>Region</th><th colspan="2">Sales</th></tr>',
        '<tr><td rowspan="2">North</td><td>10</td><td>12</td></tr>',
        '<tr><td>11</td><td>13 &lt; 14</td></tr>',
        '<tr><td colspan="3">Total: 46</td></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it('reads legacy horizontal merges and drops the rows and columns where no cell shows text', async () => {
    const tc = (text: string, props = '') =>
      `<w:tc><w:tcPr>${props}</w:tcPr><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const xml =
      `<w:document ${W}><w:body><w:tbl>` +
      `<w:tr>${tc('Name')}${tc('Contact', '<w:hMerge w:val="restart"/>')}${tc('', '<w:hMerge/>')}${tc('')}</w:tr>` +
      `<w:tr>${tc('')}${tc('')}${tc('')}${tc('')}</w:tr>` +
      `<w:tr>${tc('Kim')}${tc('Phone')}${tc('Mail')}${tc('')}</w:tr>` +
      `</w:tbl></w:body></w:document>`;
    const md = await extractDocx(await write(packageWith(xml)), 'legacy.docx');
    expect(md).toBe(
      [
        '<table>',
        '<tr><th>Name</th><th colspan="2">Contact</th></tr>',
        '<tr><td>Kim</td><td>Phone</td><td>Mail</td></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it("writes a table nested in a cell inside that cell (HTML tables), and a cell's paragraphs as its lines", async () => {
    const md = await convert(({ Document, Paragraph, Table, TableRow, TableCell }) => {
      const cell = (...children: (InstanceType<DocxModule['Paragraph']> | InstanceType<DocxModule['Table']>)[]) =>
        new TableCell({ children });
      const inner = new Table({
        rows: [
          new TableRow({ children: [cell(new Paragraph('A')), cell(new Paragraph('B'))] }),
          new TableRow({ children: [cell(new Paragraph('1')), cell(new Paragraph('2'))] }),
        ],
      });
      return new Document({
        sections: [
          {
            children: [
              new Table({
                rows: [
                  new TableRow({ children: [cell(new Paragraph('Name')), cell(new Paragraph('Detail'))] }),
                  new TableRow({ children: [cell(new Paragraph('Rich')), cell(new Paragraph('See below'), inner)] }),
                  new TableRow({
                    children: [cell(new Paragraph('Two lines')), cell(new Paragraph('One'), new Paragraph('Two'))],
                  }),
                ],
              }),
              new Paragraph('After'),
            ],
          },
        ],
      });
    });
    expect(md).toBe(
      [
        '<table>',
        '<tr><th>Name</th><th>Detail</th></tr>',
        '<tr><td>Rich</td><td>See below<table>',
        '<tr><th>A</th><th>B</th></tr>',
        '<tr><td>1</td><td>2</td></tr>',
        '</table></td></tr>',
        '<tr><td>Two lines</td><td>One<br>Two</td></tr>',
        '</table>',
        '',
        'After',
        '',
      ].join('\n'),
    );
  });

  it('writes a one-cell table, a frame around content, as that content', async () => {
    const md = await convert(
      ({ Document, Paragraph, Table, TableRow, TableCell, HeadingLevel }) =>
        new Document({
          sections: [
            {
              children: [
                new Table({
                  rows: [
                    new TableRow({
                      children: [
                        new TableCell({
                          children: [
                            new Paragraph({ text: 'Warning', heading: HeadingLevel.HEADING_2 }),
                            new Paragraph('Keep away from water.'),
                          ],
                        }),
                      ],
                    }),
                  ],
                }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('## Warning\n\nKeep away from water.\n');
  });
});
