import { DomainError } from '@docconv/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import { blocksOf } from '@docconv/model/testing';
import { barChartPart } from '../office/testing/chart-part';
import { extractDocx } from './extract-docx';

type DocxModule = typeof import('docx');

/** A 1×1 transparent PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let folder: string;
let count = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-docx-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function write(bytes: Buffer): Promise<string> {
  const path = join(folder, `${++count}.docx`);
  await writeFile(path, bytes);
  return path;
}

/** Builds a document with the `docx` package and converts it. */
async function convert(build: (docx: DocxModule) => InstanceType<DocxModule['Document']>): Promise<string> {
  const docx = await import('docx');
  const bytes = await docx.Packer.toBuffer(build(docx));
  return extractDocx(await write(bytes), 'fixture.docx');
}

/** A minimal package whose main document part is the given XML. */
function packageWith(documentXml: string): Buffer {
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    { name: 'word/document.xml', data: documentXml },
  ]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

describe('extractDocx', () => {
  it('writes a chart as its title and a table of its data, after the paragraph that anchors it', async () => {
    const document =
      `<w:document ${W} xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>' +
      '<w:p><w:r><w:t>Sales by year:</w:t></w:r><w:r><w:drawing><wp:inline><wp:docPr id="1" name="Chart 1"/>' +
      '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId5"/>' +
      '</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:t>After.</w:t></w:r></w:p></w:body></w:document>';
    const bytes = makeZip([
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      },
      { name: 'word/document.xml', data: document },
      {
        name: 'word/_rels/document.xml.rels',
        data:
          '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/></Relationships>',
      },
      {
        name: 'word/charts/chart1.xml',
        data: barChartPart('Sales', ['2024', '2025'], [{ name: 'Units', values: [3, 5] }]),
      },
    ]);
    const md = await extractDocx(await write(bytes), 'chart.docx');
    expect(md).toBe(
      'Sales by year:\n\n**Sales** (bar chart)\n\n|  | Units |\n| --- | --- |\n| 2024 | 3 |\n| 2025 | 5 |\n\nAfter.\n',
    );
  });

  it('writes Word heading styles as Markdown headings', async () => {
    const md = await convert(
      ({ Document, Paragraph, HeadingLevel }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({ text: 'Annual report', heading: HeadingLevel.HEADING_1 }),
                new Paragraph('Opening words.'),
                new Paragraph({ text: 'Revenue', heading: HeadingLevel.HEADING_2 }),
                new Paragraph({ text: 'By region', heading: HeadingLevel.HEADING_3 }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('# Annual report\n\nOpening words.\n\n## Revenue\n\n### By region\n');
  });

  it('nests numbered and bulleted list items by their level and keeps Word’s numbers', async () => {
    const md = await convert(
      ({ Document, Paragraph, LevelFormat, AlignmentType }) =>
        new Document({
          numbering: {
            config: [
              {
                reference: 'steps',
                levels: [
                  { level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START },
                  { level: 1, format: LevelFormat.BULLET, text: '•', alignment: AlignmentType.START },
                  { level: 2, format: LevelFormat.DECIMAL, text: '%1.%2.%3', alignment: AlignmentType.START },
                ],
              },
            ],
          },
          sections: [
            {
              children: [
                new Paragraph({ text: 'Prepare', numbering: { reference: 'steps', level: 0 } }),
                new Paragraph({ text: 'Wash the beans', numbering: { reference: 'steps', level: 1 } }),
                new Paragraph({ text: 'Soak overnight', numbering: { reference: 'steps', level: 2 } }),
                new Paragraph({ text: 'Cook', numbering: { reference: 'steps', level: 0 } }),
                new Paragraph('Taste before serving.'),
                new Paragraph({ text: 'Serve', numbering: { reference: 'steps', level: 0 } }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe(
      [
        '1. Prepare',
        '    - Wash the beans',
        '        - 1.1.1 Soak overnight',
        '2. Cook',
        '',
        'Taste before serving.',
        '',
        '3. Serve',
        '',
      ].join('\n'),
    );
  });

  it('keeps two adjacent numbered lists apart', async () => {
    const md = await convert(
      ({ Document, Paragraph, LevelFormat, AlignmentType }) =>
        new Document({
          numbering: {
            config: [
              {
                reference: 'numbers',
                levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
              },
            ],
          },
          sections: [
            {
              children: [
                new Paragraph({ text: 'First list, one', numbering: { reference: 'numbers', level: 0, instance: 1 } }),
                new Paragraph({ text: 'First list, two', numbering: { reference: 'numbers', level: 0, instance: 1 } }),
                new Paragraph({ text: 'Second list, one', numbering: { reference: 'numbers', level: 0, instance: 2 } }),
              ],
            },
          ],
        }),
    );
    // A new delimiter starts a new list in Markdown; the same one would continue the first list.
    expect(md).toBe('1. First list, one\n2. First list, two\n1) Second list, one\n');
  });

  it('writes bold, italic and links, keeping spaces outside the emphasis', async () => {
    const md = await convert(
      ({ Document, Paragraph, TextRun, ExternalHyperlink }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({
                  children: [
                    new TextRun('Plain, '),
                    new TextRun({ text: 'bold', bold: true }),
                    new TextRun(', '),
                    new TextRun({ text: 'italic', italics: true }),
                    new TextRun(' and '),
                    new TextRun({ text: 'both ', bold: true, italics: true }),
                    new TextRun('then '),
                    new ExternalHyperlink({
                      link: 'https://example.com/docs?q=1',
                      children: [
                        new TextRun({ text: 'the ', style: 'Hyperlink' }),
                        new TextRun({ text: 'docs', bold: true }),
                      ],
                    }),
                    new TextRun('.'),
                  ],
                }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('Plain, **bold**, *italic* and ***both*** then [the **docs**](https://example.com/docs?q=1).\n');
  });

  it('escapes only what Markdown would misread', async () => {
    const md = await convert(
      ({ Document, Paragraph }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph('snake_case_name costs 5 * 3 [approx.]'),
                new Paragraph('# not a heading'),
                new Paragraph('*not emphasis* and <b>not a tag</b>'),
                new Paragraph('2020. The year began'),
                new Paragraph('+ not a bullet'),
              ],
            },
          ],
        }),
    );
    expect(md).toBe(
      'snake_case_name costs 5 * 3 [approx.]\n\n\\# not a heading\n\n\\*not emphasis\\* and \\<b>not a tag\\</b>\n\n' +
        '2020\\. The year began\n\n\\+ not a bullet\n',
    );
    expect(blocksOf(md)).toEqual([
      'paragraph: snake_case_name costs 5 * 3 [approx.]',
      'paragraph: # not a heading',
      'paragraph: *not emphasis* and <b>not a tag</b>',
      'paragraph: 2020. The year began',
      'paragraph: + not a bullet',
    ]);
  });

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

  it('writes a table nested in a cell as a table of its own after the one holding it', async () => {
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
        '| Name | Detail |',
        '| --- | --- |',
        '| Rich | See below |',
        '',
        '| A | B |',
        '| --- | --- |',
        '| 1 | 2 |',
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

  it('writes footnotes as GFM footnotes', async () => {
    const md = await convert(
      ({ Document, Paragraph, TextRun, FootnoteReferenceRun }) =>
        new Document({
          footnotes: { 1: { children: [new Paragraph('Source: annual accounts.')] } },
          sections: [
            {
              children: [
                new Paragraph({
                  children: [new TextRun('Revenue grew'), new FootnoteReferenceRun(1), new TextRun(' by a tenth.')],
                }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('Revenue grew[^1] by a tenth.\n\n[^1]: Source: annual accounts.\n');
  });

  it('keeps the text of text boxes', async () => {
    const md = await convert(
      ({ Document, Paragraph, Textbox }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph('Before the box.'),
                new Textbox({
                  style: { width: '2in', height: '1in' },
                  children: [new Paragraph('Call the office first.')],
                }),
                new Paragraph('After the box.'),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('Before the box.\n\nCall the office first.\n\nAfter the box.\n');
  });

  it('writes equations as LaTeX, inline and on their own line', async () => {
    const md = await convert(
      ({ Document, Paragraph, TextRun, Math, MathRun, MathSuperScript, MathFraction }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({
                  children: [
                    new TextRun('The area is '),
                    new Math({
                      children: [
                        new MathRun('A=π'),
                        new MathSuperScript({ children: [new MathRun('r')], superScript: [new MathRun('2')] }),
                      ],
                    }),
                    new TextRun('.'),
                  ],
                }),
                new Paragraph({
                  children: [
                    new Math({
                      children: [new MathFraction({ numerator: [new MathRun('a')], denominator: [new MathRun('b')] })],
                    }),
                  ],
                }),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('The area is $A= \\pi r^{2}$.\n\n$$\\frac{a}{b}$$\n');
  });

  it('replaces a picture by its alternative text and never inlines its bytes', async () => {
    const md = await convert(
      ({ Document, Paragraph, ImageRun }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({
                  children: [
                    new ImageRun({
                      type: 'png',
                      data: PIXEL,
                      transformation: { width: 10, height: 10 },
                      altText: { name: 'logo', title: 'logo', description: 'Company logo' },
                    }),
                  ],
                }),
                new Paragraph('Caption.'),
              ],
            },
          ],
        }),
    );
    expect(md).toBe('[Image: Company logo]\n\nCaption.\n');
  });

  it('keeps a picture placeholder literal whatever brackets its description holds', async () => {
    const md = await convert(
      ({ Document, Paragraph, ImageRun }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({
                  children: [
                    new ImageRun({
                      type: 'png',
                      data: PIXEL,
                      transformation: { width: 10, height: 10 },
                      altText: { name: 'chart', title: 'chart', description: 'See [a](b) and [^1]' },
                    }),
                  ],
                }),
              ],
            },
          ],
        }),
    );
    // Escaped as any text is, only where Markdown would read syntax: `](` and `[^`.
    expect(md).toBe('[Image: See [a\\](b) and \\[^1]]\n');
    expect(blocksOf(md)).toEqual(['paragraph: [Image: See [a](b) and [^1]]']);
  });

  describe('refuses what is not a readable Word document', () => {
    const refused = async (bytes: Buffer): Promise<DomainError> => {
      const error: unknown = await extractDocx(await write(bytes), 'broken.docx').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      const domain = error as DomainError;
      expect(domain.code).toBe('file_processing_failed');
      expect(domain.message).toMatch(/^broken\.docx could not be read as a Word document: .+\. .+\.$/);
      return domain;
    };

    it('random bytes', async () => {
      const error = await refused(randomBytes(4096));
      expect(error.message).toContain('not a .docx file');
    });

    it('a truncated document', async () => {
      const docx = await import('docx');
      const whole = await docx.Packer.toBuffer(
        new docx.Document({ sections: [{ children: [new docx.Paragraph('Some text')] }] }),
      );
      const error = await refused(whole.subarray(0, Math.floor(whole.length / 2)));
      expect(error.message).toContain('damaged or incomplete');
    });

    it('a ZIP archive without a Word document in it', async () => {
      const error = await refused(makeZip([{ name: 'notes.txt', data: 'hello' }]));
      expect(error.message).toContain('not a Word document');
    });

    it('a document part that expands like a ZIP bomb (413, naming the file and the part)', async () => {
      const paragraphs = '<w:p/>'.repeat(400_000);
      const error: unknown = await extractDocx(
        await write(packageWith(`<w:document ${W}><w:body>${paragraphs}</w:body></w:document>`)),
        'bomb.docx',
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('payload_too_large');
      expect((error as DomainError).message).toMatch(
        /^bomb\.docx: its part word\/document\.xml expands more than 200:1/,
      );
    });

    it('a document part with a document type declaration (entity expansion)', async () => {
      const laughs = '<!DOCTYPE d [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>';
      const error = await refused(packageWith(`${laughs}<w:document ${W}><w:body><w:p/></w:body></w:document>`));
      expect(error.message).toContain('document type declarations are not allowed');
    });

    it('a document part that is not well-formed XML', async () => {
      const error = await refused(packageWith(`<w:document ${W}><w:body><w:p><w:r><w:t>cut`));
      expect(error.message).toContain('word/document.xml is not well-formed XML');
    });
  });

  it('reads a document whose namespaces use unusual prefixes', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<x:document xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><x:body>' +
      '<x:p><x:r><x:rPr><x:b/></x:rPr><x:t>Hello</x:t></x:r><x:r><x:t xml:space="preserve"> world &amp; more</x:t></x:r></x:p>' +
      '</x:body></x:document>';
    expect(await extractDocx(await write(packageWith(xml)), 'odd.docx')).toBe('**Hello** world & more\n');
  });
});
