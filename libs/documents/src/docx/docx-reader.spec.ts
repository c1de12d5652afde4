import type { Block, Document } from '@docconv/model';
import { extractDocxWithImages } from './extract-docx';
import { DocxFixtures, PIXEL, type DocxModule } from './testing/docx-fixtures';

const fixtures = new DocxFixtures();
beforeAll(() => fixtures.open());
afterAll(() => fixtures.close());

/** Builds a document with the `docx` package and reads it as the model (and its Markdown). */
async function read(
  build: (docx: DocxModule) => InstanceType<DocxModule['Document']>,
  imagePrefix?: string,
): Promise<{ markdown: string; document: Document }> {
  return extractDocxWithImages(await fixtures.build(build), 'report.docx', undefined, imagePrefix);
}

const from = { file: 'report.docx' };

describe('the DOCX reader’s document model', () => {
  it('builds a table as cells with their spans, formatted runs and the rows Word repeats as header', async () => {
    const { document } = await read(({ Document, Paragraph, Table, TableRow, TableCell, TextRun }) => {
      const cell = (text: string, options: { rowSpan?: number } = {}) =>
        new TableCell({ children: [new Paragraph(text)], ...options });
      return new Document({
        sections: [
          {
            children: [
              new Table({
                rows: [
                  new TableRow({ tableHeader: true, children: [cell('Region'), cell('Sales')] }),
                  new TableRow({
                    children: [
                      cell('North', { rowSpan: 2 }),
                      new TableCell({
                        children: [new Paragraph({ children: [new TextRun({ text: '10', bold: true })] })],
                      }),
                    ],
                  }),
                  new TableRow({ children: [cell('11')] }),
                ],
              }),
            ],
          },
        ],
      });
    });
    const text = (t: string) => [{ kind: 'text', text: t }];
    expect(document.blocks).toEqual([
      {
        type: 'table',
        from,
        headerRows: 1,
        rows: [
          [
            { content: text('Region'), rowspan: 1, colspan: 1 },
            { content: text('Sales'), rowspan: 1, colspan: 1 },
          ],
          [
            { content: text('North'), rowspan: 2, colspan: 1 },
            { content: [{ kind: 'text', text: '10', bold: true }], rowspan: 1, colspan: 1 },
          ],
          [{ content: text('11'), rowspan: 1, colspan: 1 }],
        ],
      },
    ]);
  });

  it('keeps text plain: what the Markdown escapes is written as the page says it', async () => {
    const { document, markdown } = await read(
      ({ Document, Paragraph, TextRun }) =>
        new Document({
          sections: [
            {
              children: [
                new Paragraph({
                  children: [new TextRun('Use '), new TextRun({ text: '`make` [all](x)', italics: true })],
                }),
              ],
            },
          ],
        }),
    );
    expect(document.blocks).toEqual([
      {
        type: 'paragraph',
        from,
        content: [
          { kind: 'text', text: 'Use ' },
          { kind: 'text', text: '`make` [all](x)', italic: true },
        ],
      },
    ]);
    expect(markdown).toBe('Use *\\`make\\` [all\\](x)*\n');
  });

  it('makes list paragraphs list items with their depth, Word’s number and the list they belong to', async () => {
    const { document } = await read(
      ({ Document, Paragraph, LevelFormat, AlignmentType }) =>
        new Document({
          numbering: {
            config: [
              {
                reference: 'steps',
                levels: [
                  { level: 0, format: LevelFormat.DECIMAL, text: '%1)', alignment: AlignmentType.START },
                  { level: 1, format: LevelFormat.BULLET, text: '•', alignment: AlignmentType.START },
                ],
              },
            ],
          },
          sections: [
            {
              children: [
                new Paragraph({ text: 'Prepare', numbering: { reference: 'steps', level: 0 } }),
                new Paragraph({ text: 'Wash', numbering: { reference: 'steps', level: 1 } }),
                new Paragraph({ text: 'Cook', numbering: { reference: 'steps', level: 0 } }),
              ],
            },
          ],
        }),
    );
    const items = document.blocks.map((block: Block) =>
      block.type === 'list_item' ? [block.depth, block.number, block.delimiter, typeof block.list] : block.type,
    );
    expect(items).toEqual([
      [0, 1, ')', 'string'],
      [1, undefined, undefined, 'string'],
      [0, 2, ')', 'string'],
    ]);
  });

  it('refers to a footnote with a note inline and writes the note as a footnote block after the body', async () => {
    const { document } = await read(
      ({ Document, Paragraph, TextRun, FootnoteReferenceRun }) =>
        new Document({
          footnotes: { 1: { children: [new Paragraph('Source: annual accounts.')] } },
          sections: [
            { children: [new Paragraph({ children: [new TextRun('Revenue grew'), new FootnoteReferenceRun(1)] })] },
          ],
        }),
    );
    expect(document.blocks).toEqual([
      {
        type: 'paragraph',
        from,
        content: [
          { kind: 'text', text: 'Revenue grew' },
          { kind: 'note', label: '1' },
        ],
      },
      { type: 'footnote', from, label: '1', content: [{ kind: 'text', text: 'Source: annual accounts.' }] },
    ]);
  });

  it('makes a picture an image inline when it is stored, and its alternative text when it is not', async () => {
    const build = ({ Document, Paragraph, ImageRun }: DocxModule) =>
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
                    altText: { name: 'duck', title: 'duck', description: 'A duck' },
                  }),
                ],
              }),
            ],
          },
        ],
      });
    const stored = await read(build, 'images/');
    expect(stored.document.blocks).toEqual([
      { type: 'paragraph', from, content: [{ kind: 'image', src: 'images/image-1.png', alt: 'A duck' }] },
    ]);
    const unstored = await read(build);
    expect(unstored.document.blocks).toEqual([
      { type: 'paragraph', from, content: [{ kind: 'text', text: '[Image: A duck]' }] },
    ]);
  });
});
