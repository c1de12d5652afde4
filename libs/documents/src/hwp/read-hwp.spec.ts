import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { hancomMarkdown } from '../hancom/markdown';
import type { Block, Inline, Paragraph, Table } from '../hancom/model';
import { barChartPart } from '../office/testing/chart-part';
import { readHwp } from './read-hwp';
import { chartStorage, HwpBuilder } from './testing/hwp-builder';

const DIGIT = 0;
const HANGUL_SYLLABLE = 8;
const CIRCLED_DIGIT = 1;

describe('readHwp', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'read-hwp-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  let count = 0;
  function save(data: Buffer): string {
    const path = join(folder, `doc-${count++}.hwp`);
    writeFileSync(path, data);
    return path;
  }
  const read = (builder: HwpBuilder) => readHwp(save(builder.build()), 'doc.hwp');
  const paragraphs = (builder: HwpBuilder): Paragraph[] => read(builder).sections[0].blocks as Paragraph[];
  const inlinesOf = (builder: HwpBuilder): Inline[] => paragraphs(builder)[0].inlines;

  it('numbers outline paragraphs with the outline numbering the section definition names', () => {
    const doc = new HwpBuilder();
    doc.numbering([{ pattern: '^1)' }]);
    const outline = doc.numbering([
      { pattern: '^1.', format: DIGIT },
      { pattern: '^2.', format: HANGUL_SYLLABLE },
      { pattern: '' },
    ]);
    const level1 = doc.paraShape({ heading: 'outline', level: 0 });
    const level2 = doc.paraShape({ heading: 'outline', level: 1 });
    const level3 = doc.paraShape({ heading: 'outline', level: 2 });
    doc.paragraph([{ sectionDefinition: { outlineNumbering: outline } }, { text: '개요' }], { paraShape: level1 });
    doc.paragraph('하위', { paraShape: level2 });
    doc.paragraph('하위 둘', { paraShape: level2 });
    doc.paragraph('번호 없음', { paraShape: level3 });
    doc.paragraph('둘째', { paraShape: level1 });
    doc.paragraph('하위 다시', { paraShape: level2 });

    const result = paragraphs(doc).map((p) => [p.role, p.label]);

    expect(result).toEqual([
      [{ kind: 'heading', level: 1 }, '1.'],
      [{ kind: 'heading', level: 2 }, '가.'],
      [{ kind: 'heading', level: 2 }, '나.'],
      [{ kind: 'heading', level: 3 }, ''],
      [{ kind: 'heading', level: 1 }, '2.'],
      [{ kind: 'heading', level: 2 }, '가.'],
    ]);
  });

  it('numbers list paragraphs from their numbering and its start, and labels bullets with their character', () => {
    const doc = new HwpBuilder();
    const numbering = doc.numbering([
      { pattern: '(^1)', start: 3 },
      { pattern: '^2', format: CIRCLED_DIGIT },
    ]);
    const bullet = doc.bullet('•');
    const first = doc.paraShape({ heading: 'number', level: 0, ref: numbering });
    const second = doc.paraShape({ heading: 'number', level: 1, ref: numbering });
    const bulleted = doc.paraShape({ heading: 'bullet', level: 1, ref: bullet });
    doc.paragraph('하나', { paraShape: first });
    doc.paragraph('안', { paraShape: second });
    doc.paragraph('안 둘', { paraShape: second });
    doc.paragraph('둘', { paraShape: first });
    doc.paragraph('점', { paraShape: bulleted });

    const result = paragraphs(doc).map((p) => [p.role, p.label]);

    expect(result).toEqual([
      [{ kind: 'list', level: 0, ordered: true }, '(3)'],
      [{ kind: 'list', level: 1, ordered: true }, '①'],
      [{ kind: 'list', level: 1, ordered: true }, '②'],
      [{ kind: 'list', level: 0, ordered: true }, '(4)'],
      [{ kind: 'list', level: 1, ordered: false }, '•'],
    ]);
  });

  it('makes headings of paragraphs whose style is an outline, heading or title style', () => {
    const doc = new HwpBuilder();
    const outline = doc.style('개요 3', 'Outline 3');
    const heading = doc.style('소제목', 'Heading 2');
    const title = doc.style('대제목');
    const body = doc.style('본문', 'Body');
    doc.paragraph('a', { style: outline });
    doc.paragraph('b', { style: heading });
    doc.paragraph('c', { style: title });
    doc.paragraph('d', { style: body });

    expect(paragraphs(doc).map((p) => p.role)).toEqual([
      { kind: 'heading', level: 3 },
      { kind: 'heading', level: 2 },
      { kind: 'heading', level: 1 },
      { kind: 'body' },
    ]);
  });

  it('splits text into runs by character shape with their bold, italic, strikeout and script', () => {
    const doc = new HwpBuilder();
    const bold = doc.charShape({ bold: true });
    const italic = doc.charShape({ italic: true });
    const struck = doc.charShape({ strike: true });
    const sup = doc.charShape({ superscript: true });
    const sub = doc.charShape({ subscript: true });
    const alsoBold = doc.charShape({ bold: true });
    doc.paragraph([
      { text: '보통 ' },
      { text: '굵게', charShape: bold },
      { text: '도', charShape: alsoBold },
      { text: '기울임', charShape: italic },
      { text: '취소', charShape: struck },
      { text: '위', charShape: sup },
      { text: '아래', charShape: sub },
    ]);

    expect(inlinesOf(doc)).toEqual([
      { type: 'text', text: '보통 ' },
      { type: 'text', text: '굵게도', bold: true },
      { type: 'text', text: '기울임', italic: true },
      { type: 'text', text: '취소', strike: true },
      { type: 'text', text: '위', superscript: true },
      { type: 'text', text: '아래', subscript: true },
    ]);
  });

  it('reads line breaks, tabs and fixed spaces, and leaves bookmarks out', () => {
    const doc = new HwpBuilder();
    doc.paragraph([
      { text: '첫 줄' },
      { lineBreak: true },
      { text: '둘' },
      { tab: true },
      { text: '셋' },
      { nonBreakingSpace: true },
      { bookmark: true },
      { text: '넷' },
    ]);

    expect(inlinesOf(doc)).toEqual([
      { type: 'text', text: '첫 줄' },
      { type: 'break' },
      { type: 'text', text: '둘 셋 넷' },
    ]);
  });

  it('reads a table with a merged cell and a caption above it, numbered by its auto number', () => {
    const doc = new HwpBuilder();
    const cell = (text: string) => [{ pieces: [{ text }] }];
    doc.paragraph([
      {
        table: {
          rows: 2,
          cols: 2,
          caption: {
            side: 'top',
            paragraphs: [{ pieces: [{ text: '표 ' }, { autoNumber: 4, value: 3 }, { text: ' 요약' }] }],
          },
          cells: [
            { row: 0, col: 0, colSpan: 2, paragraphs: cell('제목') },
            { row: 1, col: 0, paragraphs: cell('A') },
            { row: 1, col: 1, paragraphs: [...cell('B1'), ...cell('B2')] },
          ],
        },
      },
    ]);

    const [inline] = inlinesOf(doc);
    expect(inline.type).toBe('table');
    const table = (inline as { table: Table }).table;
    expect(table.rows).toBe(2);
    expect(table.cols).toBe(2);
    expect(table.caption?.before).toBe(true);
    expect(texts(table.caption?.blocks ?? [])).toEqual(['표 3 요약']);
    expect(table.cells.map((c) => [c.row, c.col, c.rowSpan, c.colSpan, texts(c.blocks)])).toEqual([
      [0, 0, 1, 2, ['제목']],
      [1, 0, 1, 1, ['A']],
      [1, 1, 1, 1, ['B1', 'B2']],
    ]);
  });

  it('puts a caption below its table when Hangul draws it there', () => {
    const doc = new HwpBuilder();
    doc.paragraph([
      {
        table: {
          rows: 1,
          cols: 1,
          caption: { side: 'bottom', paragraphs: [{ pieces: [{ text: '아래' }] }] },
          cells: [{ row: 0, col: 0, paragraphs: [{ pieces: [{ text: 'x' }] }] }],
        },
      },
    ]);

    const table = (inlinesOf(doc)[0] as { table: Table }).table;
    expect(table.caption?.before).toBe(false);
  });

  it('reads footnotes and endnotes without their own number, and keeps the text around them', () => {
    const doc = new HwpBuilder();
    const note = (text: string, kind: number) => [{ pieces: [{ autoNumber: kind, value: 1 }, { text }] }];
    doc.paragraph([
      { text: '본문' },
      { note: 'footnote', paragraphs: note(' 각주입니다.', 1) },
      { text: ' 이어서' },
      { note: 'endnote', paragraphs: note('미주', 2) },
    ]);

    const inlines = inlinesOf(doc);
    expect(inlines.map((i) => i.type)).toEqual(['text', 'note', 'text', 'note']);
    const [, footnote, , endnote] = inlines as Extract<Inline, { type: 'note' }>[];
    expect(footnote.kind).toBe('footnote');
    expect(texts(footnote.blocks)).toEqual([' 각주입니다.']);
    expect(endnote.kind).toBe('endnote');
    expect(texts(endnote.blocks)).toEqual(['미주']);
  });

  it('gives a section its headers and footers, without page numbers, and keeps them out of the body', () => {
    const doc = new HwpBuilder();
    doc.paragraph([
      { header: [{ pieces: [{ text: '머리말 ' }, { autoNumber: 0, value: 7 }] }] },
      { footer: [{ pieces: [{ text: '꼬리말' }] }] },
      { text: '본문' },
    ]);

    const [section] = read(doc).sections;

    expect(section.headers.map(texts)).toEqual([['머리말 ']]);
    expect(section.footers.map(texts)).toEqual([['꼬리말']]);
    expect(texts(section.blocks)).toEqual(['본문']);
  });

  it('makes a link of a hyperlink field and keeps the text of other fields', () => {
    const doc = new HwpBuilder();
    const bold = doc.charShape({ bold: true });
    doc.paragraph([
      { text: '보기: ', charShape: bold },
      { link: 'https://example.com/a;b', text: '예시' },
      { text: ' 그리고 ' },
      { field: '%clk', text: '누름틀' },
    ]);

    expect(inlinesOf(doc)).toEqual([
      { type: 'text', text: '보기: ', bold: true },
      { type: 'link', href: 'https://example.com/a', inlines: [{ type: 'text', text: '예시' }] },
      { type: 'text', text: ' 그리고 누름틀' },
    ]);
  });

  it('keeps a link open until its field ends and sets a table inside it after the link', () => {
    const doc = new HwpBuilder();
    const table = { rows: 1, cols: 1, cells: [{ row: 0, col: 0, paragraphs: [{ pieces: [{ text: '칸' }] }] }] };
    doc.paragraph([{ link: 'http://a.example', text: '앞' }]);
    doc.paragraph([{ text: '글 ' }, { link: 'http://b.example', text: '', open: [{ text: '링크' }, { table }] }]);

    const [first, second] = paragraphs(doc);

    expect(first.inlines).toEqual([
      { type: 'link', href: 'http://a.example', inlines: [{ type: 'text', text: '앞' }] },
    ]);
    expect(second.inlines.map((i) => i.type)).toEqual(['text', 'link', 'table']);
    expect(second.inlines[1]).toEqual({
      type: 'link',
      href: 'http://b.example',
      inlines: [{ type: 'text', text: '링크' }],
    });
  });

  it('reads equations as their script', () => {
    const doc = new HwpBuilder();
    doc.paragraph([{ text: '식 ' }, { equation: 'x = {-b +- sqrt {b^2 - 4ac}} over {2a}' }]);

    expect(inlinesOf(doc)).toEqual([
      { type: 'text', text: '식 ' },
      { type: 'equation', script: 'x = {-b +- sqrt {b^2 - 4ac}} over {2a}' },
    ]);
  });

  it('keeps the paragraphs of a text box as the objects of its paragraph', () => {
    const doc = new HwpBuilder();
    const bullet = doc.bullet('-');
    const bulleted = doc.paraShape({ heading: 'bullet', level: 0, ref: bullet });
    doc.paragraph([
      { textBox: [{ pieces: [{ text: '상자 안' }] }, { pieces: [{ text: '항목' }], paraShape: bulleted }] },
    ]);

    const [inline] = inlinesOf(doc);
    expect(inline.type).toBe('objects');
    const blocks = (inline as { blocks: Block[] }).blocks as Paragraph[];
    expect(texts(blocks)).toEqual(['상자 안', '항목']);
    expect(blocks[1].label).toBe('-');
  });

  it('reads a picture with its description and caption', () => {
    const doc = new HwpBuilder();
    doc.paragraph([
      {
        picture: {
          description: '그림입니다.\r\n원본 그림의 이름: a.png',
          caption: { side: 'bottom', paragraphs: [{ pieces: [{ text: '그림 ' }, { autoNumber: 3, value: 2 }] }] },
        },
      },
    ]);

    const [inline] = inlinesOf(doc);
    expect(inline).toMatchObject({
      type: 'image',
      alt: '그림입니다.\n원본 그림의 이름: a.png',
      caption: { before: false },
    });
    expect(texts((inline as { caption: { blocks: Block[] } }).caption.blocks)).toEqual(['그림 2']);
  });

  it('writes a chart in an OLE object as its title and data table where it stands, with its caption', () => {
    const doc = new HwpBuilder();
    doc.oleData(chartStorage('<not a chart/>'));
    const chart = barChartPart(
      '분기별 매출',
      ['1분기', '2분기'],
      [
        { name: '매출', values: [10, 12.5] },
        { name: '비용', values: [7, 8] },
      ],
    );
    // The object names the item by its place in the document info, not by its stream's number.
    const item = doc.oleData(chartStorage(chart), { storageId: 7 });
    doc.paragraph('앞 문단');
    doc.paragraph([
      { text: '실적은 아래와 같다.' },
      { ole: item, caption: { side: 'bottom', paragraphs: [{ pieces: [{ text: '그림 1 분기별 매출' }] }] } },
    ]);
    doc.paragraph('뒤 문단');

    const document = read(doc);

    expect((document.sections[0].blocks[1] as Paragraph).inlines[1]).toEqual({
      type: 'chart',
      chart: expect.objectContaining({ title: '분기별 매출', kind: 'Bar' }) as unknown,
    });
    expect(hancomMarkdown(document)).toBe(
      [
        '앞 문단',
        '실적은 아래와 같다.',
        '**분기별 매출** (bar chart)',
        '|  | 매출 | 비용 |\n| --- | --- | --- |\n| 1분기 | 10 | 7 |\n| 2분기 | 12.5 | 8 |',
        '그림 1 분기별 매출',
        '뒤 문단\n',
      ].join('\n\n'),
    );
  });

  it('reads a chart whose part is stored deflated inside its compound file', () => {
    const doc = new HwpBuilder();
    const chart = barChartPart('지역별', ['서울'], [{ name: '인구', values: [940] }]);
    doc.paragraph([{ ole: doc.oleData(chartStorage(deflateRawSync(chart))) }]);

    expect(hancomMarkdown(read(doc))).toBe('**지역별** (bar chart)\n\n|  | 인구 |\n| --- | --- |\n| 서울 | 940 |\n');
  });

  it('leaves out OLE objects whose chart cannot be read, keeping their captions and the rest of the document', () => {
    const doc = new HwpBuilder();
    const caption = (text: string) => ({ side: 'top' as const, paragraphs: [{ pieces: [{ text }] }] });
    const legacy = CFB.utils.cfb_new();
    CFB.utils.cfb_add(legacy, '/Contents', Buffer.alloc(300, 1));
    const legacyChart = Buffer.from(CFB.write(legacy, { type: 'buffer' }) as Uint8Array);
    const good = chartStorage(barChartPart('남은 차트', ['가'], [{ name: '값', values: [1] }]));
    const objects = [
      doc.oleData(Buffer.from('not deflate data at all'), { asIs: true }),
      doc.oleData(good.subarray(0, 700)),
      doc.oleData(chartStorage('<c:chartSpace><c:chart>')),
      doc.oleData(legacyChart),
      99,
      doc.oleData(good),
    ];
    doc.paragraph('앞');
    for (const [i, ole] of objects.entries()) doc.paragraph([{ ole, caption: caption(`그림 ${i + 1}`) }]);
    doc.paragraph('뒤');

    expect(hancomMarkdown(read(doc))).toBe(
      [
        '앞',
        '그림 1',
        '그림 2',
        '그림 3',
        '그림 4',
        '그림 5',
        '그림 6',
        '**남은 차트** (bar chart)',
        '|  | 값 |\n| --- | --- |\n| 가 | 1 |',
        '뒤\n',
      ].join('\n\n'),
    );
  });

  it('holds a chart it inflates to the decompression limits', () => {
    const doc = new HwpBuilder();
    const categories = Array.from({ length: 4000 }, (_, i) => `항목 ${i}`);
    const chart = barChartPart('큰 차트', categories, [{ name: '값', values: categories.map(() => 1) }]);
    doc.paragraph([{ ole: doc.oleData(chartStorage(chart)) }]);
    const path = save(doc.build());

    expect(codeOf(() => readHwp(path, 'big.hwp', { maxRatio: 200, maxTotalBytes: 100_000 }))).toBe('payload_too_large');
    expect(hancomMarkdown(readHwp(path, 'big.hwp'))).toContain('| 항목 3999 | 1 |');
  });

  it('marks page breaks but not the section start of the first paragraph', () => {
    const doc = new HwpBuilder();
    doc.paragraph('첫 쪽');
    doc.paragraph('둘째 쪽', { pageBreak: true });
    doc.section();
    doc.paragraph('둘째 구역');

    const { sections } = read(doc);

    expect(sections).toHaveLength(2);
    expect((sections[0].blocks as Paragraph[]).map((p) => p.pageBreak ?? false)).toEqual([false, true]);
    expect(texts(sections[1].blocks)).toEqual(['둘째 구역']);
    expect((sections[1].blocks[0] as Paragraph).pageBreak).toBeUndefined();
  });

  it('refuses an HWP 3 document with advice to save it again', () => {
    const path = save(
      Buffer.concat([Buffer.from('HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05', 'latin1'), Buffer.alloc(200)]),
    );

    expect(() => readHwp(path, 'old.hwp')).toThrow(DomainError);
    expect(() => readHwp(path, 'old.hwp')).toThrow(/old\.hwp is an HWP 3 document.*save it as HWP or HWPX/);
    expect(codeOf(() => readHwp(path, 'old.hwp'))).toBe('unsupported_format');
  });

  it('refuses a file that is not an HWP 5 compound file', () => {
    const path = save(Buffer.from('just some text, not a document'));

    expect(codeOf(() => readHwp(path, 'text.hwp'))).toBe('unsupported_format');
    expect(() => readHwp(path, 'text.hwp')).toThrow(/text\.hwp is a damaged HWP file/);
  });

  it('holds the streams it inflates to the decompression limits', () => {
    const doc = new HwpBuilder();
    for (let i = 0; i < 200; i++) doc.paragraph('가'.repeat(2000));
    const path = save(doc.build());

    expect(codeOf(() => readHwp(path, 'big.hwp', { maxRatio: 200, maxTotalBytes: 100_000 }))).toBe('payload_too_large');
    expect(readHwp(path, 'big.hwp').sections[0].blocks).toHaveLength(200);
  });
});

/** Each paragraph's text, inline objects left out. */
function texts(blocks: Block[]): string[] {
  return blocks.map((block) =>
    block.type === 'paragraph'
      ? block.inlines.map((inline) => (inline.type === 'text' ? inline.text : '')).join('')
      : '[table]',
  );
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a domain error';
  }
  return undefined;
}
