import { withPageFurniture, writeMarkdown, type PageFurniture } from '@docconv/model';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocksOf, formattedSpans, leftoverDelimiters } from '@docconv/model/testing';
import { barChartPart } from '../office/testing/chart-part';
import { extractHwpx } from './extract-hwpx';
import { readHwpx } from './read-hwpx';
import { hwpx, p, run, section, SECTION_PR, subList, tbl } from './testing/hwpx-builder';

/** Outline numbering 1 (`^1.` digits, `^2.` 가나다, `^3)` digits), a `^1)` numbering 2, bold and italic shapes. */
const REF_LIST = `<hh:numberings itemCnt="2">
<hh:numbering id="1" start="0"><hh:paraHead start="1" level="1" numFormat="DIGIT">^1.</hh:paraHead><hh:paraHead start="1" level="2" numFormat="HANGUL_SYLLABLE">^2.</hh:paraHead><hh:paraHead start="1" level="3" numFormat="DIGIT">^3)</hh:paraHead></hh:numbering>
<hh:numbering id="2" start="0"><hh:paraHead start="1" level="1" numFormat="CIRCLED_DIGIT">^1</hh:paraHead><hh:paraHead start="1" level="2" numFormat="LATIN_SMALL">(^2)</hh:paraHead></hh:numbering>
</hh:numberings>
<hh:paraProperties itemCnt="2">
<hh:paraPr id="10"><hh:heading type="OUTLINE" idRef="0" level="2"/></hh:paraPr>
<hh:paraPr id="11"><hh:heading type="NUMBER" idRef="2" level="0"/></hh:paraPr>
<hh:paraPr id="12"><hh:heading type="NUMBER" idRef="2" level="1"/></hh:paraPr>
</hh:paraProperties>
<hh:charProperties itemCnt="3">
<hh:charPr id="0" height="1000"><hh:fontRef hangul="0"/></hh:charPr>
<hh:charPr id="1" height="1000"><hh:fontRef hangul="0"/><hh:bold/></hh:charPr>
<hh:charPr id="2" height="1000"><hh:fontRef hangul="0"/><hh:italic/><hh:strikeout shape="NONE" color="#000000"/></hh:charPr>
</hh:charProperties>`;

function shaped(charPr: number, text: string): string {
  return `<hp:run charPrIDRef="${charPr}"><hp:t>${text}</hp:t></hp:run>`;
}

function control(inner: string): string {
  return run(`<hp:ctrl>${inner}</hp:ctrl>`);
}

describe('readHwpx through the Hancom Markdown writer', () => {
  let folder: string;
  const convert = async (
    sections: string[],
    parts: { name: string; data: string }[] = [],
    furniture: PageFurniture = 'drop',
  ): Promise<string> => {
    const path = join(folder, 'doc.hwpx');
    await writeFile(path, hwpx(sections, parts, REF_LIST));
    return writeMarkdown(withPageFurniture(await extractHwpx(path, 'doc.hwpx'), furniture));
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-hwpx-model-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('numbers outline headings as Hancom draws them, deeper levels starting again under each parent', async () => {
    const markdown = await convert([
      section([
        p(`${run(SECTION_PR)}${run('개요')}`, { paraPr: 1 }),
        p('배경', { paraPr: 2 }),
        p('목적', { paraPr: 2 }),
        p('세부 내용', { paraPr: 10 }),
        p('추진 계획', { paraPr: 1 }),
        p('일정', { paraPr: 2 }),
      ]),
    ]);
    expect(blocksOf(markdown)).toEqual([
      'heading1: 1. 개요',
      'heading2: 가. 배경',
      'heading2: 나. 목적',
      'heading3: 1) 세부 내용',
      'heading1: 2. 추진 계획',
      'heading2: 가. 일정',
    ]);
  });

  it('writes numbered paragraphs with their own numbers as text, so that no renderer numbers them again', async () => {
    const markdown = await convert([
      section([
        p('첫째', { paraPr: 11 }),
        p('세부 가', { paraPr: 12 }),
        p('세부 나', { paraPr: 12 }),
        p('둘째', { paraPr: 11 }),
        p('본문'),
        p('셋째', { paraPr: 11 }),
      ]),
    ]);
    expect(blocksOf(markdown)).toEqual([
      'paragraph: ① 첫째',
      'paragraph: (a) 세부 가',
      'paragraph: (b) 세부 나',
      'paragraph: ② 둘째',
      'paragraph: 본문',
      'paragraph: ③ 셋째',
    ]);
  });

  it('writes bold and italic runs beside Korean particles so that CommonMark reads them, quotes left outside the bold', async () => {
    const markdown = await convert([
      section([
        p(`${shaped(0, '이름')}${shaped(1, '“누리”')}${shaped(0, '가 선정')}${shaped(1, '되었다')}`),
        p(`${shaped(2, '기울임')}${shaped(0, '과 ')}${shaped(1, '굵게 ')}${shaped(0, '끝')}`),
      ]),
    ]);
    expect(leftoverDelimiters(markdown)).toEqual([]);
    expect(formattedSpans(markdown)).toEqual([
      ['이름“', ''],
      ['누리', 'b'],
      ['”가 선정', ''],
      ['되었다', 'b'],
      ['기울임', 'i'],
      ['과 ', ''],
      ['굵게', 'b'],
      [' 끝', ''],
    ]);
  });

  it('reads the page header and footer as furniture, once each, without page numbers: shown at the start and end when kept', async () => {
    const header = control(
      `<hp:header id="1" applyPageType="BOTH">${subList([p('국가연구개발사업 보고서')])}</hp:header>`,
    );
    const footer = control(
      `<hp:footer id="2" applyPageType="BOTH">${subList([
        p(run('- ', '<hp:ctrl><hp:autoNum num="1" numType="PAGE"/></hp:ctrl>', ' -')),
        p('과학기술정보통신부'),
      ])}</hp:footer>`,
    );
    const sections = [
      section([p(`${run(SECTION_PR)}${header}${footer}${run('첫 페이지')}`)]),
      section([p(`${header}${run('둘째 구역')}`)]),
    ];
    expect(blocksOf(await convert(sections))).toEqual([
      'paragraph: 첫 페이지',
      'thematicBreak: ',
      'paragraph: 둘째 구역',
    ]);
    expect(blocksOf(await convert(sections, [], 'keep'))).toEqual([
      'paragraph: 국가연구개발사업 보고서',
      'paragraph: 첫 페이지',
      'thematicBreak: ',
      'paragraph: 둘째 구역',
      'paragraph: 과학기술정보통신부',
    ]);
  });

  it('marks footnotes and endnotes as GFM footnotes, numbered in the order they appear', async () => {
    const note = (kind: 'footNote' | 'endNote', text: string): string =>
      control(
        `<hp:${kind} number="1">${subList([p(run(`<hp:ctrl><hp:autoNum num="1" numType="${kind === 'footNote' ? 'FOOTNOTE' : 'ENDNOTE'}"/></hp:ctrl>`, text))])}</hp:${kind}>`,
      );
    const markdown = await convert([
      section([
        p(`${run('본문')}${note('endNote', ' 미주의 설명')}${run(' 그리고')}${note('footNote', '각주의 설명')}`),
      ]),
    ]);
    expect(markdown).toBe('본문[^1] 그리고[^2]\n\n[^1]: 미주의 설명\n[^2]: 각주의 설명\n');
  });

  it('keeps hyperlinks as links and equations as LaTeX', async () => {
    const link =
      '<hp:ctrl><hp:fieldBegin id="1" type="HYPERLINK" name="" editable="0" dirty="0" zorder="-1" fieldid="1"><hp:parameters cnt="1">' +
      '<hp:stringParam name="Command">https\\://www.msit.go.kr/a b;1;0;0;</hp:stringParam></hp:parameters></hp:fieldBegin></hp:ctrl>';
    const equation =
      '<hp:equation id="3" version="Equation Version 60" baseLine="86" textColor="#000000" baseUnit="1000"><hp:script>{a+b} over 2 = sqrt {x}</hp:script></hp:equation>';
    const markdown = await convert([
      section([
        p(run('누리집: ', link, '과기정통부', '<hp:ctrl><hp:fieldEnd beginIDRef="1" fieldid="1"/></hp:ctrl>', ' 참조')),
        p(run('식 ', equation, ' 입니다')),
      ]),
    ]);
    expect(markdown).toContain('누리집: [과기정통부](https://www.msit.go.kr/a%20b) 참조');
    expect(markdown).toContain('식 $\\frac{a + b}{2} = \\sqrt{x}$ 입니다');
  });

  it('leaves out a table no cell of which holds text, keeping its caption', async () => {
    const empty = tbl(
      [
        [
          { row: 0, col: 0, paragraphs: [''] },
          { row: 0, col: 1, paragraphs: [''] },
        ],
      ],
      { caption: '표 3 빈 표' },
    );
    const markdown = await convert([section([p(run('앞', empty, '뒤'))])]);
    expect(markdown).toBe('앞\n\n표 3 빈 표\n\n뒤\n');
  });
  /** A chart as Hangul writes it: the chart part in a `switch` case, an OLE copy as the default for older readers. */
  const chart = (ref: string, caption = ''): string =>
    '<hp:switch><hp:case hp:required-namespace="http://www.hancom.co.kr/hwpml/2016/ooxmlchart">' +
    `<hp:chart id="9" zOrder="4" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" chartIDRef="${ref}">` +
    '<hp:sz width="32250" widthRelTo="ABSOLUTE" height="18750" heightRelTo="ABSOLUTE" protect="0"/>' +
    '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>' +
    (caption
      ? `<hp:caption side="BOTTOM" fullSz="0" width="8504" gap="850" lastWidth="32250">${subList([p(caption)])}</hp:caption>`
      : '') +
    '</hp:chart></hp:case><hp:default>' +
    '<hp:ole id="9" zOrder="4" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" objectType="EMBEDDED" binaryItemIDRef="ole1"><hp:shapeComment>OLE 개체</hp:shapeComment></hp:ole>' +
    '</hp:default></hp:switch>';
  const quarterly = barChartPart(
    '분기별 매출',
    ['1분기', '2분기'],
    [
      { name: '매출', values: [10, 12.5] },
      { name: '비용', values: [7, 8] },
    ],
  );
  const quarterlyMarkdown =
    '**분기별 매출** (bar chart)\n\n|  | 매출 | 비용 |\n| --- | --- | --- |\n| 1분기 | 10 | 7 |\n| 2분기 | 12.5 | 8 |';

  it('writes a chart as its title and data table where it stands, with its caption', async () => {
    const markdown = await convert(
      [
        section([
          p('앞 문단'),
          p(run('실적은 아래와 같다.', chart('Chart/chart1.xml', '그림 1 분기별 매출'))),
          p('뒤 문단'),
        ]),
      ],
      [{ name: 'Chart/chart1.xml', data: quarterly }],
    );
    expect(markdown).toBe(
      ['앞 문단', '실적은 아래와 같다.', quarterlyMarkdown, '그림 1 분기별 매출', '뒤 문단\n'].join('\n\n'),
    );
  });

  it('writes a chart inside a table cell as lines of text', async () => {
    const table = tbl([[{ row: 0, col: 0, paragraphs: [p(run('표 안 차트', chart('Chart/chart1.xml')))] }]]);
    const markdown = await convert([section([p(run(table))])], [{ name: 'Chart/chart1.xml', data: quarterly }]);
    expect(markdown).toBe(
      '| 표 안 차트<br>**분기별 매출** (bar chart)<br>매출 비용<br>1분기 10 7<br>2분기 12.5 8 |\n| --- |\n',
    );
  });

  it('falls back to what Hangul offers older readers when a chart part is missing or damaged', async () => {
    const markdown = await convert(
      [
        section([
          p('앞'),
          p(run(chart('Chart/chart1.xml', '그림 1 손상'))),
          p(run(chart('Chart/chart2.xml', '그림 2 없음'))),
          p(run(chart('Chart/chart3.xml'))),
          p('뒤'),
        ]),
      ],
      [
        { name: 'Chart/chart1.xml', data: '<c:chartSpace xmlns:c="x"><c:chart>' },
        { name: 'Chart/chart3.xml', data: quarterly },
      ],
    );
    expect(markdown).toBe(['앞', 'OLE 개체', 'OLE 개체', quarterlyMarkdown, '뒤\n'].join('\n\n'));
  });

  it('keeps a bare chart element whose part cannot be read as its caption', async () => {
    const bare =
      '<hp:chart id="9" zOrder="4" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" chartIDRef="Chart/chart9.xml">' +
      `<hp:caption side="TOP" fullSz="0" width="8504" gap="850" lastWidth="32250">${subList([p('그림 9 없는 차트')])}</hp:caption></hp:chart>`;
    expect(await convert([section([p(run('앞', bare, '뒤'))])])).toBe('앞뒤\n\n그림 9 없는 차트\n');
  });

  it('holds the chart parts it reads to the decompression limits', async () => {
    const categories = Array.from({ length: 4000 }, (_, i) => `항목 ${i}`);
    const big = barChartPart('큰 차트', categories, [{ name: '값', values: categories.map(() => 1) }]);
    const path = join(folder, 'big.hwpx');
    await writeFile(
      path,
      hwpx([section([p(run(chart('Chart/chart1.xml')))])], [{ name: 'Chart/chart1.xml', data: big }], REF_LIST),
    );
    await expect(readHwpx(path, 'big.hwpx', { maxRatio: 200, maxTotalBytes: 200_000 })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(writeMarkdown(await extractHwpx(path, 'big.hwpx'))).toContain('| 항목 3999 | 1 |');
  });
});
