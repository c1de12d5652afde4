import { blocksOf } from '@docconv/model/testing';
import { makeZip } from '../../../../test/support/archives';
import { barChartPart } from '../office/testing/chart-part';
import { extractDocx, extractDocxWithImages } from './extract-docx';
import { DocxFixtures, packageWith, PIXEL, W } from './testing/docx-fixtures';

const fixtures = new DocxFixtures();
beforeAll(() => fixtures.open());
afterAll(() => fixtures.close());

const write = (bytes: Buffer): Promise<string> => fixtures.write(bytes);

/** Builds a document with the `docx` package and converts it. */
const convert: DocxFixtures['markdown'] = (build) => fixtures.markdown(build);

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

  it('reads headers and footers as furniture, each distinct text once, without a page number alone', async () => {
    const path = await fixtures.build(
      ({ Document, Footer, Header, PageNumber, Paragraph, TextRun }) =>
        new Document({
          sections: [1, 2].map((n) => ({
            headers: { default: new Header({ children: [new Paragraph('ACME — confidential')] }) },
            footers: {
              default: new Footer({
                children: [
                  new Paragraph('Quarterly report'),
                  new Paragraph({ children: [new TextRun({ children: [PageNumber.CURRENT] })] }),
                ],
              }),
            },
            children: [new Paragraph(`Section ${n} of the report.`)],
          })),
        }),
    );
    const { markdown, document } = await extractDocxWithImages(path, 'report.docx');
    expect(markdown).toBe('Section 1 of the report.\n\nSection 2 of the report.\n');
    expect(document.blocks.filter((block) => block.type === 'furniture')).toEqual([
      { type: 'furniture', role: 'header', text: 'ACME — confidential', from: { file: 'report.docx' } },
      { type: 'furniture', role: 'footer', text: 'Quarterly report', from: { file: 'report.docx' } },
    ]);
    expect(document.blocks[0].type).toBe('furniture');
    expect(document.blocks[document.blocks.length - 1].type).toBe('furniture');
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

  it('reads a document whose namespaces use unusual prefixes', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<x:document xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><x:body>' +
      '<x:p><x:r><x:rPr><x:b/></x:rPr><x:t>Hello</x:t></x:r><x:r><x:t xml:space="preserve"> world &amp; more</x:t></x:r></x:p>' +
      '</x:body></x:document>';
    expect(await extractDocx(await write(packageWith(xml)), 'odd.docx')).toBe('**Hello** world & more\n');
  });
});
