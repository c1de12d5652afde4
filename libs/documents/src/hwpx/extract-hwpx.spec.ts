import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import { makeHwpx } from '../../../../test/support/fixtures';
import { blocksOf, formattedSpans, leftoverDelimiters } from '../markdown/testing/read-back';
import { extractHwpx } from './extract-hwpx';

// ---- a richer OWPML generator: styles, tables with merged cells, notes, text boxes ---------

const NS =
  'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" ' +
  'xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"';

const HEADER = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hh:head ${NS} version="1.4" secCnt="2"><hh:refList>
<hh:bullets itemCnt="1"><hh:bullet id="1" char="●" useImage="0"><hh:paraHead level="0" align="LEFT"/></hh:bullet></hh:bullets>
<hh:paraProperties itemCnt="4">
<hh:paraPr id="0"><hh:align horizontal="JUSTIFY"/><hh:heading type="NONE" idRef="0" level="0"/></hh:paraPr>
<hh:paraPr id="1"><hh:heading type="OUTLINE" idRef="0" level="0"/></hh:paraPr>
<hh:paraPr id="2"><hh:heading type="OUTLINE" idRef="0" level="1"/></hh:paraPr>
<hh:paraPr id="3"><hh:heading type="BULLET" idRef="1" level="0"/></hh:paraPr>
</hh:paraProperties>
<hh:styles itemCnt="3">
<hh:style id="0" type="PARA" name="바탕글" engName="Normal" paraPrIDRef="0" charPrIDRef="0"/>
<hh:style id="1" type="PARA" name="개요 1" engName="Outline 1" paraPrIDRef="1" charPrIDRef="0"/>
<hh:style id="2" type="PARA" name="제목" engName="Title" paraPrIDRef="0" charPrIDRef="0"/>
</hh:styles></hh:refList></hh:head>`;

interface ParaOptions {
  paraPr?: number;
  style?: number;
  pageBreak?: boolean;
}

/** A paragraph; `content` is raw run content, or plain text for a single run. */
function p(content: string, options: ParaOptions = {}): string {
  const inner = content.startsWith('<') ? content : run(content);
  return (
    `<hp:p id="0" paraPrIDRef="${options.paraPr ?? 0}" styleIDRef="${options.style ?? 0}" ` +
    `pageBreak="${options.pageBreak ? 1 : 0}" columnBreak="0" merged="0">${inner}` +
    '<hp:linesegarray><hp:lineseg textpos="0" vertpos="0" vertsize="1000" textheight="1000" baseline="850" spacing="600" horzpos="0" horzsize="42520" flags="393216"/></hp:linesegarray></hp:p>'
  );
}

function run(...texts: string[]): string {
  return `<hp:run charPrIDRef="0">${texts.map((t) => (t.startsWith('<') ? t : `<hp:t>${t}</hp:t>`)).join('')}</hp:run>`;
}

function subList(paragraphs: string[]): string {
  return `<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="CENTER">${paragraphs.join('')}</hp:subList>`;
}

interface CellSpec {
  row: number;
  col: number;
  rowSpan?: number;
  colSpan?: number;
  /** Paragraph texts, or raw paragraphs when they start with `<`. */
  paragraphs: string[];
}

function tbl(rows: CellSpec[][], options: { addresses?: boolean; caption?: string } = {}): string {
  const colCnt = Math.max(...rows.flat().map((c) => c.col + (c.colSpan ?? 1)));
  const trs = rows
    .map(
      (cells) =>
        '<hp:tr>' +
        cells
          .map(
            (c) =>
              '<hp:tc name="" header="0" hasMargin="0" protect="0" editable="0" dirty="0" borderFillIDRef="2">' +
              subList(c.paragraphs.map((t) => (t.startsWith('<') ? t : p(t)))) +
              (options.addresses === false ? '' : `<hp:cellAddr colAddr="${c.col}" rowAddr="${c.row}"/>`) +
              `<hp:cellSpan colSpan="${c.colSpan ?? 1}" rowSpan="${c.rowSpan ?? 1}"/>` +
              '<hp:cellSz width="10000" height="282"/><hp:cellMargin left="141" right="141" top="141" bottom="141"/></hp:tc>',
          )
          .join('') +
        '</hp:tr>',
    )
    .join('');
  const caption = options.caption
    ? `<hp:caption side="BOTTOM" fullSz="0" width="8504" gap="850" lastWidth="40454">${subList([p(options.caption)])}</hp:caption>`
    : '';
  return (
    `<hp:tbl id="1" zOrder="0" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" rowCnt="${rows.length}" colCnt="${colCnt}" cellSpacing="0" borderFillIDRef="2" noAdjust="0">` +
    '<hp:sz width="40000" widthRelTo="ABSOLUTE" height="4000" heightRelTo="ABSOLUTE" protect="0"/>' +
    '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>' +
    `<hp:outMargin left="283" right="283" top="283" bottom="283"/>${caption}<hp:inMargin left="141" right="141" top="141" bottom="141"/>` +
    `${trs}</hp:tbl>`
  );
}

const SECTION_PR =
  '<hp:secPr id="" textDirection="HORIZONTAL" spaceColumns="1134" tabStop="8000"><hp:pagePr landscape="WIDELY" width="59528" height="84188" gutterType="LEFT_ONLY"><hp:margin header="4252" footer="4252" gutter="0" left="8504" right="8504" top="5668" bottom="4252"/></hp:pagePr></hp:secPr>' +
  '<hp:ctrl><hp:colPr id="" type="NEWSPAPER" layout="LEFT" colCount="1" sameSz="1" sameGap="0"/></hp:ctrl>';

const PICTURE =
  '<hp:pic id="5" zOrder="2" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM"><hp:orgSz width="16350" height="9810"/>' +
  '<hc:img binaryItemIDRef="image1" bright="0" contrast="0" effect="REAL_PIC" alpha="0"/>' +
  '<hp:shapeComment>그림입니다. 원본 그림의 이름: photo.jpg</hp:shapeComment></hp:pic>';

const TEXT_BOX =
  '<hp:rect id="7" zOrder="3" numberingType="PICTURE" textWrap="IN_FRONT_OF_TEXT"><hp:drawText lastWidth="10000" name="" editable="0">' +
  `${subList([p('글상자 안의 글')])}<hp:textMargin left="283" right="283" top="283" bottom="283"/></hp:drawText></hp:rect>`;

const FOOTNOTE = `<hp:ctrl><hp:footNote number="1" suffixChar="41" instId="1">${subList([p('각주의 설명입니다.')])}</hp:footNote></hp:ctrl>`;

function section(paragraphs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec ${NS}>${paragraphs.join('')}</hs:sec>`;
}

function hwpx(sections: string[], extra: { name: string; data: string }[] = []): Buffer {
  return makeZip([
    { name: 'mimetype', data: 'application/hwp+zip', store: true },
    {
      name: 'version.xml',
      data: '<?xml version="1.0"?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version"/>',
    },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"/>',
    },
    { name: 'Contents/header.xml', data: HEADER },
    ...sections.map((xml, i) => ({ name: `Contents/section${i}.xml`, data: xml })),
    ...extra,
  ]);
}

const MERGED_TABLE = tbl(
  [
    [
      { row: 0, col: 0, colSpan: 2, paragraphs: ['구 분'] },
      { row: 0, col: 2, paragraphs: ['비고'] },
    ],
    [
      { row: 1, col: 0, rowSpan: 2, paragraphs: ['한국형발사체'] },
      { row: 1, col: 1, paragraphs: ['총 길이'] },
      { row: 1, col: 2, paragraphs: ['47.2 m', '(3단)'] },
    ],
    [
      { row: 2, col: 1, paragraphs: ['이륙 중량'] },
      {
        row: 2,
        col: 2,
        paragraphs: [
          p(
            run(
              '200 톤 | 최대',
              tbl([
                [
                  { row: 0, col: 0, paragraphs: ['안쪽 가'] },
                  { row: 0, col: 1, paragraphs: ['안쪽 나'] },
                ],
              ]),
            ),
          ),
        ],
      },
    ],
  ],
  { caption: '표 1 발사체 비교' },
);

const DOCUMENT = hwpx([
  section([
    p(`${run(SECTION_PR)}${run('보도 자료')}`, { style: 2 }),
    p('제1장 총칙', { paraPr: 1, style: 1 }),
    p(run('대한', '민국의 ', '발사체', '는 “누리”입니다.', FOOTNOTE)),
    p(run('이름<hp:tab width="4000" leader="0" type="1"/>홍길동<hp:lineBreak/>둘째 줄'), {}),
    p(run('&lt;별표 1&gt; 기호 &amp; 문자 &#xAC00;&#44032;')),
    p(''),
    p('첫째 항목', { paraPr: 3 }),
    p('1.1 세부 절', { paraPr: 2, style: 1 }),
    p(run('표 앞', MERGED_TABLE, '표 뒤')),
    p(run(PICTURE, '그림 옆 글', TEXT_BOX)),
    p('다음 쪽 첫 문단', { pageBreak: true }),
  ]),
  section([p('둘째 구역의 글')]),
]);

const EXPECTED = `# 보도 자료

# 제1장 총칙

대한민국의 발사체는 “누리”입니다.[^1]

이름 홍길동  
둘째 줄

<별표 1> 기호 & 문자 가가

- 첫째 항목

## 1.1 세부 절

표 앞

<table>
<tr><th colspan="2">구 분</th><th>비고</th></tr>
<tr><td rowspan="2">한국형발사체</td><td>총 길이</td><td>47.2 m<br>(3단)</td></tr>
<tr><td>이륙 중량</td><td>200 톤 | 최대<br>안쪽 가 안쪽 나</td></tr>
</table>

표 1 발사체 비교

표 뒤

그림 옆 글

글상자 안의 글

---

다음 쪽 첫 문단

---

둘째 구역의 글

[^1]: 각주의 설명입니다.
`;

// ---- tests --------------------------------------------------------------------------------

async function expectRefused(promise: Promise<unknown>, name: string, reason: RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('file_processing_failed');
  expect((error as DomainError).message).toContain(`${name} could not be read as an HWPX document: `);
  expect((error as DomainError).message).toMatch(reason);
}

describe('extractHwpx', () => {
  let folder: string;
  const write = async (name: string, data: Buffer | string): Promise<string> => {
    const path = join(folder, name);
    await writeFile(path, data);
    return path;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-hwpx-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('turns a whole document into Markdown in document order', async () => {
    expect(await extractHwpx(await write('doc.hwpx', DOCUMENT), 'doc.hwpx')).toBe(EXPECTED);
  });

  it('joins runs without adding spaces and keeps Korean text exactly as stored', async () => {
    const markdown = await extractHwpx(await write('doc.hwpx', DOCUMENT), 'doc.hwpx');
    expect(markdown).toContain('대한민국의 발사체는');
    expect(markdown).not.toMatch(/[\uFFFD]|Ã|ì/);
    expect(markdown).not.toMatch(/대 한|한 민|민 국/);
  });

  it('writes a table without merged cells as GFM', async () => {
    const table = tbl([
      [
        { row: 0, col: 0, paragraphs: ['구 분'] },
        { row: 0, col: 1, paragraphs: ['비고'] },
      ],
      [
        { row: 1, col: 0, paragraphs: ['총 길이'] },
        { row: 1, col: 1, paragraphs: ['47.2 m | 25.8 m', '(3단)'] },
      ],
    ]);
    const markdown = await extractHwpx(await write('gfm.hwpx', hwpx([section([p(run(table))])])), 'gfm.hwpx');
    expect(markdown).toBe('| 구 분 | 비고 |\n| --- | --- |\n| 총 길이 | 47.2 m \\| 25.8 m<br>(3단) |\n');
  });

  it('places cells that carry no address after the columns taken from above, padding short rows', async () => {
    const table = tbl(
      [
        [
          { row: 0, col: 0, rowSpan: 2, paragraphs: ['가'] },
          { row: 0, col: 1, paragraphs: ['나'] },
          { row: 0, col: 2, paragraphs: ['다'] },
        ],
        [
          { row: 1, col: 1, paragraphs: ['라'] },
          { row: 1, col: 2, paragraphs: ['마'] },
        ],
        [{ row: 2, col: 0, colSpan: 2, paragraphs: ['바사'] }],
      ],
      { addresses: false },
    );
    const markdown = await extractHwpx(await write('plain.hwpx', hwpx([section([p(run(table))])])), 'plain.hwpx');
    expect(markdown).toBe(
      [
        '<table>',
        '<tr><th rowspan="2">가</th><th>나</th><th>다</th></tr>',
        '<tr><td>라</td><td>마</td></tr>',
        '<tr><td colspan="2">바사</td><td></td></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it('leaves out rows where no cell starts, with the spans over them', async () => {
    const table = tbl([
      [
        { row: 0, col: 0, rowSpan: 3, paragraphs: ['구 분'] },
        { row: 0, col: 1, rowSpan: 2, paragraphs: ['내용'] },
      ],
      [],
      [{ row: 2, col: 1, paragraphs: ['끝'] }],
    ]);
    const markdown = await extractHwpx(await write('rows.hwpx', hwpx([section([p(run(table))])])), 'rows.hwpx');
    expect(markdown).toBe(
      ['<table>', '<tr><th rowspan="2">구 분</th><th>내용</th></tr>', '<tr><td>끝</td></tr>', '</table>', ''].join(
        '\n',
      ),
    );
  });

  it('keeps spans that reach past the table inside it, and the text of cells they cover', async () => {
    const table = tbl([
      [
        { row: 0, col: 0, rowSpan: 90_000, colSpan: 90_000, paragraphs: ['넓은 칸'] },
        { row: 0, col: 1, paragraphs: ['옆 칸'] },
      ],
      [{ row: 1, col: 1, paragraphs: ['아래 칸'] }],
    ]);
    const started = Date.now();
    const markdown = await extractHwpx(await write('wide.hwpx', hwpx([section([p(run(table))])])), 'wide.hwpx');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(markdown).toBe(
      [
        '<table>',
        '<tr><th rowspan="2" colspan="1000">넓은 칸 옆 칸 아래 칸</th></tr>',
        '<tr></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it('reads the minimal HWPX of the test fixtures, every page in order', async () => {
    const pages = [['첫 쪽 첫 문단', '첫 쪽 둘째 문단'], ['둘째 쪽 문단']];
    const markdown = await extractHwpx(await write('fixture.hwpx', await makeHwpx(pages)), 'fixture.hwpx');
    expect(markdown).toBe('첫 쪽 첫 문단\n\n첫 쪽 둘째 문단\n\n둘째 쪽 문단\n');
  });

  it('keeps text that looks like Markdown syntax from changing the structure', async () => {
    const file = hwpx([
      section([p('# 해시로 시작'), p('---'), p('> 인용 아님'), p(run('&lt;b&gt;굵게&lt;/b&gt; 아님'))]),
    ]);
    const markdown = await extractHwpx(await write('syntax.hwpx', file), 'syntax.hwpx');
    expect(markdown).toBe('\\# 해시로 시작\n\n\\---\n\n\\> 인용 아님\n\n\\<b>굵게\\</b> 아님\n');
  });

  it('keeps numbered-looking lines, brackets, entities and a literal footnote mark as text, beside a real footnote', async () => {
    const file = hwpx([
      section([
        p('2020. 올해의 성과'),
        p(run('[^1]은 표시일 뿐, [링크](x)도 &amp;amp;도 글자', FOOTNOTE)),
        p('1) 둘째 줄 + 셋째'),
      ]),
    ]);
    const markdown = await extractHwpx(await write('literal-syntax.hwpx', file), 'literal-syntax.hwpx');
    expect(markdown).toBe(
      '2020\\. 올해의 성과\n\n' +
        '\\[^1]은 표시일 뿐, [링크\\](x)도 \\&amp;도 글자[^1]\n\n' +
        '1\\) 둘째 줄 + 셋째\n\n' +
        '[^1]: 각주의 설명입니다.\n',
    );
    expect(blocksOf(markdown)).toEqual([
      'paragraph: 2020. 올해의 성과',
      'paragraph: [^1]은 표시일 뿐, [링크](x)도 &amp;도 글자 [footnoteReference]',
      'paragraph: 1) 둘째 줄 + 셋째',
      'footnoteDefinition: 각주의 설명입니다.',
    ]);
  });

  it('keeps literal asterisks, underscores and tildes from becoming emphasis or strikethrough', async () => {
    const lines = [
      '*주의* 기간 4월 27일~5월 31일, 6월~7월',
      '변수 snake_case, __init__, 5 * 3, 1~2',
      '표 안 *별표*와 3~4',
      '저궤도(600km~800km)',
    ];
    const file = hwpx([section([p(lines[0]), p(run(lines[1], '<hp:lineBreak/>', lines[2])), p(lines[3])])]);
    const markdown = await extractHwpx(await write('literal.hwpx', file), 'literal.hwpx');
    expect(markdown).toBe(
      '\\*주의\\* 기간 4월 27일\\~5월 31일, 6월\\~7월\n\n' +
        '변수 snake_case, \\_\\_init\\_\\_, 5 * 3, 1\\~2  \n표 안 \\*별표\\*와 3\\~4\n\n' +
        '저궤도(600km~800km)\n',
    );
    expect(formattedSpans(markdown)).toEqual([[lines.join(''), '']]);
    expect(leftoverDelimiters(markdown, lines.join(''))).toEqual([]);
  });

  it('refuses a file that is not a zip', async () => {
    await expectRefused(
      extractHwpx(await write('text.hwpx', '한글 문서 아님'), '문서.hwpx'),
      '문서.hwpx',
      /HWPX package/,
    );
  });

  it('refuses a package without sections', async () => {
    const file = makeZip([{ name: 'mimetype', data: 'application/hwp+zip', store: true }]);
    await expectRefused(extractHwpx(await write('empty.hwpx', file), 'empty.hwpx'), 'empty.hwpx', /HWPX package/);
  });

  it('refuses a section that is not well-formed XML', async () => {
    const file = hwpx([section([p('정상 문단')]), `${section([p('깨진 문단')]).slice(0, -10)}<hp:p>`]);
    await expectRefused(
      extractHwpx(await write('broken.hwpx', file), 'broken.hwpx'),
      'broken.hwpx',
      /section 2 is not well-formed XML/,
    );
  });

  it('refuses a password-protected package', async () => {
    const manifest = {
      name: 'META-INF/manifest.xml',
      data: '<?xml version="1.0"?><odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><odf:file-entry odf:full-path="Contents/section0.xml"><odf:encryption-data odf:checksum-type="SHA1"/></odf:file-entry></odf:manifest>',
    };
    const file = hwpx([section([p('암호')])], [manifest]);
    await expectRefused(
      extractHwpx(await write('locked.hwpx', file), 'locked.hwpx'),
      'locked.hwpx',
      /password-protected/,
    );
  });
});
