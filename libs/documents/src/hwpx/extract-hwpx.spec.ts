import { writeMarkdown } from '@docconv/model';
import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import { FOOTNOTE, hwpx, p, PICTURE, run, section, SECTION_PR, tbl, TEXT_BOX } from './testing/hwpx-builder';
import { makeHwpx } from '../../../../test/support/fixtures';
import { blocksOf, formattedSpans, leftoverDelimiters } from '@docconv/model/testing';
import { extractHwpx } from './extract-hwpx';

/** The Markdown the model's writer makes of what `extractHwpx` reads. */
const markdownOf = async (path: string, name: string): Promise<string> => writeMarkdown(await extractHwpx(path, name));

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
    expect(await markdownOf(await write('doc.hwpx', DOCUMENT), 'doc.hwpx')).toBe(EXPECTED);
  });

  it('joins runs without adding spaces and keeps Korean text exactly as stored', async () => {
    const markdown = await markdownOf(await write('doc.hwpx', DOCUMENT), 'doc.hwpx');
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
    const markdown = await markdownOf(await write('gfm.hwpx', hwpx([section([p(run(table))])])), 'gfm.hwpx');
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
    const markdown = await markdownOf(await write('plain.hwpx', hwpx([section([p(run(table))])])), 'plain.hwpx');
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
    const markdown = await markdownOf(await write('rows.hwpx', hwpx([section([p(run(table))])])), 'rows.hwpx');
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
    const markdown = await markdownOf(await write('wide.hwpx', hwpx([section([p(run(table))])])), 'wide.hwpx');
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
    const markdown = await markdownOf(await write('fixture.hwpx', await makeHwpx(pages)), 'fixture.hwpx');
    expect(markdown).toBe('첫 쪽 첫 문단\n\n첫 쪽 둘째 문단\n\n둘째 쪽 문단\n');
  });

  it('keeps text that looks like Markdown syntax from changing the structure', async () => {
    const file = hwpx([
      section([p('# 해시로 시작'), p('---'), p('> 인용 아님'), p(run('&lt;b&gt;굵게&lt;/b&gt; 아님'))]),
    ]);
    const markdown = await markdownOf(await write('syntax.hwpx', file), 'syntax.hwpx');
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
    const markdown = await markdownOf(await write('literal-syntax.hwpx', file), 'literal-syntax.hwpx');
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
    const markdown = await markdownOf(await write('literal.hwpx', file), 'literal.hwpx');
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
