import { DomainError } from '@docconv/contracts';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip, type ZipEntrySpec } from '../../../../test/support/archives';
import { makePptx } from '../../../../test/support/fixtures';
import { blocksOf, formattedSpans, leftoverDelimiters } from '@docconv/model/testing';
import { withZip } from '../zip/zip-reader';
import { extractPptx } from './extract-pptx';
import { NS, deckEntries, handBuiltDeck, run, shape } from './testing/pptx-fixtures';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-pptx-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function save(bytes: Buffer, name: string): Promise<string> {
  const path = join(folder, `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(path, bytes);
  return path;
}

async function extract(bytes: Buffer, name = 'deck.pptx'): Promise<string> {
  return extractPptx(await save(bytes, name), name);
}

/**
 * A deck written by pptxgenjs (in a child: it loads modules dynamically) on a master with title
 * and body placeholders: Alpha (bullets, notes), Beta (a table with merged cells), Gamma (a table without).
 */
function pptxgenjsDeck(): Buffer {
  const script = `
    const PptxGenJS = require('pptxgenjs');
    const pptx = new PptxGenJS();
    pptx.defineSlideMaster({ title: 'M', objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.2, w: 9, h: 1 }, text: '' } },
      { placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1.5, w: 9, h: 4 }, text: '' } },
    ] });
    const alpha = pptx.addSlide({ masterName: 'M' });
    alpha.addText('Alpha', { placeholder: 'title' });
    alpha.addText([
      { text: 'Intro', options: { bullet: true } },
      { text: 'Details', options: { bullet: true, indentLevel: 1 } },
      { text: 'Wrap up', options: { bullet: true } },
    ], { placeholder: 'body' });
    alpha.addNotes('Speak slowly');
    const beta = pptx.addSlide({ masterName: 'M' });
    beta.addText('Beta', { placeholder: 'title' });
    beta.addTable([
      [{ text: 'Region' }, { text: 'Q1' }, { text: 'Q2' }],
      [{ text: 'North', options: { rowspan: 2 } }, { text: '10' }, { text: '20' }],
      [{ text: '11' }, { text: 'a|b' }],
      [{ text: 'Total', options: { colspan: 2 } }, { text: '41' }],
    ], { x: 0.5, y: 1.5, w: 9 });
    const gamma = pptx.addSlide({ masterName: 'M' });
    gamma.addText('Gamma', { placeholder: 'title' });
    gamma.addTable([
      [{ text: 'Item' }, { text: 'Note' }],
      [{ text: 'a|b' }, { text: 'one\\ntwo' }],
      [{ text: 'c' }, { text: '' }],
    ], { x: 0.5, y: 1.5, w: 9 });
    pptx.write({ outputType: 'base64' }).then((b64) => process.stdout.write(b64));`;
  const b64 = execFileSync(process.execPath, ['-e', script], { cwd: __dirname, maxBuffer: 64 * 1024 * 1024 });
  return Buffer.from(b64.toString(), 'base64');
}

/** The same package with the presentation's slide list reversed (the slide parts keep their names). */
async function reverseSlideOrder(pptx: Buffer): Promise<Buffer> {
  const entries = await withZip(await save(pptx, 'in.pptx'), async (zip) => {
    const out: ZipEntrySpec[] = [];
    for (const entry of zip.entries) out.push({ name: entry.name, data: await zip.read(entry, 64 * 1024 * 1024) });
    return out;
  });
  return makeZip(
    entries.map((e) => {
      if (e.name !== 'ppt/presentation.xml') return e;
      const xml = (e.data as Buffer).toString('utf8');
      return {
        name: e.name,
        data: xml.replace(/(<p:sldIdLst>)(.*?)(<\/p:sldIdLst>)/, (_, open: string, ids: string, close: string) => {
          const list = ids.match(/<p:sldId\b[^>]*\/>/g) ?? [];
          return open + list.reverse().join('') + close;
        }),
      };
    }),
  );
}

describe('extractPptx', () => {
  it('writes a heading per slide, in the order the presentation lists them, titled from the title placeholder', async () => {
    const markdown = await extract(await reverseSlideOrder(pptxgenjsDeck()));
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Gamma', '## Beta', '## Alpha']);
  });

  it('renders bullets as nested lists, tables with merged cells as HTML with their spans, and speaker notes', async () => {
    const markdown = await extract(pptxgenjsDeck());
    expect(markdown).toContain('## Alpha\n\n- Intro\n    - Details\n- Wrap up\n\n### Notes\n\nSpeak slowly\n\n## Beta');
    expect(markdown).toContain(
      [
        '## Beta',
        '',
        '<table>',
        '<tr><th>Region</th><th>Q1</th><th>Q2</th></tr>',
        '<tr><td rowspan="2">North</td><td>10</td><td>20</td></tr>',
        '<tr><td>11</td><td>a|b</td></tr>',
        '<tr><td colspan="2">Total</td><td>41</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('renders a table without merged cells as GFM, paragraphs of a cell on lines of their own', async () => {
    const markdown = await extract(pptxgenjsDeck());
    expect(markdown).toContain(
      ['## Gamma', '', '| Item | Note |', '| --- | --- |', '| a\\|b | one<br>two |', '| c |  |'].join('\n'),
    );
  });

  it('numbers untitled slides', async () => {
    const markdown = await extract(await makePptx(['first words', 'second words']));
    expect(markdown).toBe('## Slide 1\n\nfirst words\n\n## Slide 2\n\nsecond words\n');
  });

  it('reads visible shapes top to bottom then left to right, opens groups, inherits positions and bullets, and lists comments', async () => {
    const markdown = await extract(handBuiltDeck());
    expect(markdown).toBe(
      [
        '## Quarterly \\*review\\*',
        '',
        'Left column',
        '',
        'Right column',
        '',
        '- Inherited bullet',
        '    - Second level',
        '',
        'Plain **bold** and [a link](https://example.com/x)',
        '',
        'Grouped upper',
        '',
        'Grouped lower',
        '',
        'Footer text',
        '',
        '### Notes',
        '',
        'Say hello',
        '',
        '### Comments',
        '',
        '- [author: Ann Lee (AL), time: 2024-05-01T10:00:00] Check this figure',
        '',
      ].join('\n'),
    );
  });

  it('reads shapes standing side by side as columns, left before right, and a stacked shape below its neighbour', async () => {
    const sized = (text: string, x: number, y: number, cx: number, cy: number) =>
      shape([run(text)]).replace(
        '<p:spPr></p:spPr>',
        `<p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm></p:spPr>`,
      );
    const slide =
      `<p:sld ${NS}><p:cSld><p:spTree>` +
      sized('Title', 800000, 360000, 10500000, 1300000) +
      // the right box starts higher than the left one, but they stand side by side
      sized('Right box', 6200000, 1340000, 4000000, 3900000) +
      sized('Left box', 800000, 1830000, 3600000, 2100000) +
      // a note laid over the bottom of the right box reads after it
      sized('Note under the right box', 6000000, 4900000, 4200000, 400000) +
      '</p:spTree></p:cSld></p:sld>';
    const entries = deckEntries().map((e) => (e.name === 'ppt/slides/slide1.xml' ? { ...e, data: slide } : e));
    const blocks = (await extract(makeZip(entries))).split('\n\n');
    expect(blocks.slice(1, 5)).toEqual(['Title', 'Left box', 'Right box', 'Note under the right box']);
  });

  it('writes emphasis that a CommonMark parse reads: particles, quotation marks, links, literal asterisks', async () => {
    const slide =
      `<p:sld ${NS}><p:cSld><p:spTree>` +
      shape(
        [
          run('새로운 ') + run('이름', ' b="1"') + run('으로') + run('“누리”', ' b="1"') + run('가 선정'),
          run('both', ' b="1" i="1"') +
            run(' and ') +
            '<a:r><a:rPr lang="en-US" b="1"><a:hlinkClick r:id="rId9"/></a:rPr><a:t>“link”</a:t></a:r>' +
            run('s'),
          run('5 * 3, snake_case, *not emphasis*'),
        ],
        [0, 0],
      ) +
      '</p:spTree></p:cSld></p:sld>';
    const entries = deckEntries().map((e) => (e.name === 'ppt/slides/slide1.xml' ? { ...e, data: slide } : e));
    const blocks = (await extract(makeZip(entries))).split('\n\n');
    expect(blocks.slice(1, 4)).toEqual([
      '새로운 **이름**으로“**누리**”가 선정',
      '***both*** and [**“link”**](https://example.com/x)s',
      '5 * 3, snake_case, \\*not emphasis\\*',
    ]);
    expect(formattedSpans(blocks[1])).toEqual([
      ['새로운 ', ''],
      ['이름', 'b'],
      ['으로“', ''],
      ['누리', 'b'],
      ['”가 선정', ''],
    ]);
    expect(formattedSpans(blocks[2])).toEqual([
      ['both', 'bi'],
      [' and ', ''],
      ['“link”', 'b'],
      ['s', ''],
    ]);
    expect(formattedSpans(blocks[3])).toEqual([['5 * 3, snake_case, *not emphasis*', '']]);
    for (const block of blocks.slice(1, 3)) expect(leftoverDelimiters(block)).toEqual([]);
  });

  it('escapes only what Markdown would misread: list numbers, headings, links split over runs, a closing #', async () => {
    const slide =
      `<p:sld ${NS}><p:cSld><p:spTree>` +
      shape([run('Item #')], undefined, '<p:ph type="title"/>') +
      shape(
        [
          run('2020. The year'),
          run('Q3 [draft] for AT&amp;T, not &amp;amp; or ') + run('[link]') + run('(x)'),
          `<a:pPr><a:buChar char="•"/></a:pPr>${run('# not a heading')}`,
        ],
        [0, 0],
      ) +
      '</p:spTree></p:cSld></p:sld>';
    const entries = deckEntries().map((e) => (e.name === 'ppt/slides/slide1.xml' ? { ...e, data: slide } : e));
    const markdown = await extract(makeZip(entries));
    const blocks = markdown.split('\n\n');
    expect(blocks.slice(0, 4)).toEqual([
      '## Item \\#',
      '2020\\. The year',
      'Q3 [draft] for AT&T, not \\&amp; or [link\\](x)',
      '- \\# not a heading',
    ]);
    expect(blocksOf(blocks.slice(0, 3).join('\n\n'))).toEqual([
      'heading2: Item #',
      'paragraph: 2020. The year',
      'paragraph: Q3 [draft] for AT&T, not &amp; or [link](x)',
    ]);
  });

  it('refuses a file that is not a zip with file_processing_failed', async () => {
    const error = await extract(Buffer.from('not a presentation at all'), 'broken.pptx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'file_processing_failed' });
    expect((error as DomainError).message).toMatch(/^broken\.pptx could not be read as a PowerPoint file: .+\. .+/);
  });

  it('names a missing presentation part and a malformed slide', async () => {
    const noPresentation = await extract(makeZip([{ name: 'docProps/app.xml', data: '<Properties/>' }])).catch(
      (e: unknown) => e,
    );
    expect(noPresentation).toMatchObject({ code: 'file_processing_failed' });
    expect((noPresentation as Error).message).toContain('no presentation part');

    const entries = deckEntries().map((e) =>
      e.name === 'ppt/slides/slide1.xml' ? { ...e, data: '<p:sld xmlns:p="p"><p:cSld>' } : e,
    );
    const malformed = await extract(makeZip(entries)).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(DomainError);
    expect((malformed as Error).message).toContain('ppt/slides/slide1.xml is not well-formed XML');
  });
});
