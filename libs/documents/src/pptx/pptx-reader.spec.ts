import { writeMarkdown, type Document } from '@docconv/model';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import { readPptx } from './extract-pptx';
import { NS, deckEntries, handBuiltDeck, rels, run, shape } from './testing/pptx-fixtures';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-pptx-model-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function read(bytes: Buffer, name = 'deck.pptx'): Promise<Document> {
  const path = join(folder, `${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(path, bytes);
  return readPptx(path, name);
}

/** The hand-built deck with its slide's shape tree replaced by `shapes`, and no notes or comments. */
function deckWith(shapes: string): Buffer {
  const slide = `<p:sld ${NS}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`;
  const slideRels = rels([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]);
  const parts: Record<string, string> = {
    'ppt/slides/slide1.xml': slide,
    'ppt/slides/_rels/slide1.xml.rels': slideRels,
  };
  return makeZip(
    deckEntries().map((entry) => {
      const data = parts[String(entry.name)];
      return data === undefined ? entry : { ...entry, data };
    }),
  );
}

describe('readPptx', () => {
  it('builds the slide heading, its shapes, notes and comments as blocks of plain text, each from its slide', async () => {
    const document = await read(handBuiltDeck());
    expect(document.blocks.every((b) => b.from.file === 'deck.pptx' && b.from.slide === 1)).toBe(true);
    expect(document.blocks.every((b) => b.written === undefined)).toBe(true);
    expect(document.blocks.map((b) => (b.type === 'heading' ? `h${b.level}` : b.type))).toEqual([
      'h2',
      'paragraph',
      'paragraph',
      'list_item',
      'list_item',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'h3',
      'paragraph',
      'h3',
      'list_item',
    ]);
    const [title, , , first, second, formatted] = document.blocks;
    expect(title).toMatchObject({ content: [{ kind: 'text', text: 'Quarterly *review*' }] });
    expect([first, second].map((b) => b.type === 'list_item' && [b.depth, 'number' in b])).toEqual([
      [0, false],
      [1, false],
    ]);
    expect(formatted).toMatchObject({
      content: [
        { kind: 'text', text: 'Plain ' },
        { kind: 'text', text: 'bold', bold: true },
        { kind: 'text', text: ' and ' },
        { kind: 'text', text: 'a link', link: 'https://example.com/x' },
      ],
    });
    expect(document.blocks.at(-1)).toMatchObject({
      type: 'list_item',
      depth: 0,
      content: [{ kind: 'text', text: '[author: Ann Lee (AL), time: 2024-05-01T10:00:00] Check this figure' }],
    });
  });

  it('keeps a line break inside a paragraph as a break, written as a hard line break', async () => {
    const document = await read(deckWith(shape([`${run('Fee Fi')}<a:br/>${run('Fum')}`], [0, 0])));
    expect(document.blocks[1]).toMatchObject({
      type: 'paragraph',
      content: [{ kind: 'text', text: 'Fee Fi' }, { kind: 'break' }, { kind: 'text', text: 'Fum' }],
    });
    expect(writeMarkdown(document)).toBe('## Slide 1\n\nFee Fi  \nFum\n');
  });

  it('numbers items from startAt, nests a skipped level one step down, and restarts the count after a bullet', async () => {
    const numbered = (level: number, text: string) =>
      `<a:pPr lvl="${level}"><a:buAutoNum type="arabicPeriod" startAt="3"/></a:pPr>${run(text)}`;
    const bullet = (text: string) => `<a:pPr><a:buChar char="•"/></a:pPr>${run(text)}`;
    const document = await read(
      deckWith(
        shape(
          [numbered(0, 'three'), numbered(0, 'four'), numbered(2, 'deep'), bullet('dot'), numbered(0, 'again')],
          [0, 0],
        ),
      ),
    );
    expect(document.blocks.slice(1).map((b) => b.type === 'list_item' && [b.depth, b.number])).toEqual([
      [0, 3],
      [0, 4],
      [1, 3],
      [0, undefined],
      [0, 1],
    ]);
    expect(writeMarkdown(document)).toBe('## Slide 1\n\n3. three\n4. four\n    3. deep\n- dot\n1. again\n');
  });

  it('reads a table on its grid with spans and its header row, and a picture as the comment naming it', async () => {
    const cell = (text: string, attrs = '') =>
      `<a:tc${attrs}><a:txBody><a:bodyPr/><a:p>${run(text)}</a:p></a:txBody></a:tc>`;
    const table =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
      '<p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm><a:graphic><a:graphicData uri="t"><a:tbl>' +
      '<a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="1"/><a:gridCol w="1"/></a:tblGrid>' +
      `<a:tr h="1">${cell('Both', ' gridSpan="2"')}${cell('', ' hMerge="1"')}</a:tr>` +
      `<a:tr h="1">${cell('a')}${cell('b')}</a:tr>` +
      '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';
    const picture =
      '<p:pic><p:nvPicPr><p:cNvPr id="5" name="p" descr="A  chart -- yearly"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>' +
      '<p:spPr><a:xfrm><a:off x="0" y="900000"/><a:ext cx="100" cy="100"/></a:xfrm></p:spPr></p:pic>';
    const document = await read(deckWith(picture + table));
    expect(document.blocks.slice(1)).toEqual([
      {
        type: 'table',
        from: { file: 'deck.pptx', slide: 1 },
        headerRows: 1,
        rows: [
          [{ content: [{ kind: 'text', text: 'Both' }], rowspan: 1, colspan: 2 }],
          [
            { content: [{ kind: 'text', text: 'a' }], rowspan: 1, colspan: 1 },
            { content: [{ kind: 'text', text: 'b' }], rowspan: 1, colspan: 1 },
          ],
        ],
      },
      { type: 'comment', from: { file: 'deck.pptx', slide: 1 }, text: 'image: A chart -- yearly' },
    ]);
    // A comment cannot hold `--`: the writer makes it a dash.
    expect(writeMarkdown(document)).toContain('<!-- image: A chart — yearly -->');
  });
  it('takes a title drawn as text (one large line alone at the top) for a slide without a title placeholder, and nothing smaller or lower', async () => {
    const big = (text: string) => run(text, ' sz="3600"');
    const body = shape([run('Body text', ' sz="1800"')], [0, 1800000]);
    const drawn = await read(deckWith(shape([big('Quarterly results')], [0, 500000]) + body));
    expect(writeMarkdown(drawn)).toBe('## Quarterly results\n\nBody text\n');
    const low = await read(
      deckWith(shape([big('Low line')], [0, 3000000]) + shape([run('Body', ' sz="1800"')], [0, 4000000])),
    );
    expect(writeMarkdown(low)).toBe('## Slide 1\n\nLow line\n\nBody\n');
    const small = await read(deckWith(shape([run('Caption', ' sz="1800"')], [0, 500000]) + body));
    expect(writeMarkdown(small)).toBe('## Slide 1\n\nCaption\n\nBody text\n');
    const twoLines = await read(deckWith(shape([big('One'), big('Two')], [0, 500000]) + body));
    expect(writeMarkdown(twoLines)).toBe('## Slide 1\n\nOne\n\nTwo\n\nBody text\n');
  });
});
