import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { extractHwpx } from '../../documents/src/hwpx/extract-hwpx';
import { similarity } from '../../../tools/eval/metrics';
import { parseMarkdownTables, sameTable } from '../../../tools/eval/tables';
import { HWPX_MIMETYPE } from './hwpx-package';
import { renderHwpx } from './render-hwpx';
import { zipEntries } from './testing/zip-entries';
import { readMarkdown, writeMarkdown } from '@docconv/model';

const REPORT = `# 2024년 사업 보고서

본문에는 **굵은 글씨**와 *기울임*, ~~취소선~~, \`코드\`가 있습니다.
줄바꿈 뒤의 둘째 줄.

## 추진 현황

- 첫째 항목
  - 하위 항목
- 둘째 항목

1. 계획 수립
2. 예산 집행

### 실적 표

<table>
<tr><th rowspan="2">지역</th><th colspan="2">매출</th></tr>
<tr><th>1분기</th><th>2분기</th></tr>
<tr><td>서울</td><td>10</td><td>20</td></tr>
<tr><td colspan="2">합계</td><td>30</td></tr>
</table>

| 구분 | 내용 |
|---|---|
| 목적 | 한국형발사체 개발 |

\`\`\`
const total = 1;
\`\`\`
`;

/** The Markdown our HWPX extractor reads back from an HWPX rendered from `markdown`. */
async function roundTrip(markdown: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hwpx-'));
  try {
    const path = join(dir, 'report.hwpx');
    await writeFile(path, await renderHwpx(readMarkdown(markdown, 'test.md'), { title: '사업 보고서' }));
    return writeMarkdown(await extractHwpx(path, 'report.hwpx'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('renderHwpx read back by our HWPX extractor', () => {
  let markdown: string;

  beforeAll(async () => {
    markdown = await roundTrip(REPORT);
  });

  it('keeps the text', () => {
    expect(similarity(markdown, REPORT)).toBeGreaterThanOrEqual(0.98);
  });

  it('keeps headings at their levels, emphasis, hard line breaks and lists', () => {
    expect(markdown).toContain('# 2024년 사업 보고서\n');
    expect(markdown).toContain('## 추진 현황\n');
    expect(markdown).toContain('### 실적 표\n');
    expect(markdown).toContain('**굵은 글씨**와 *기울임*, ~~취소선~~');
    expect(markdown).toContain('있습니다.  \n줄바꿈 뒤의 둘째 줄.');
    expect(markdown).toMatch(/^- 첫째 항목$/m);
    expect(markdown).toMatch(/^- 첫째 항목\n {4}- 하위 항목\n- 둘째 항목$/m); // one tight list, the nested item under the first
    expect(markdown).toMatch(/^1\\?\. 계획 수립$/m);
    expect(markdown).toMatch(/^2\\?\. 예산 집행$/m);
  });

  it('keeps every table with its rows, columns and merged cells', () => {
    const written = parseMarkdownTables(REPORT);
    const read = parseMarkdownTables(markdown);
    expect(read).toHaveLength(written.length);
    // The extractor marks only the first row as a header; sameTable compares the grid and texts.
    read.forEach((table, i) => expect(sameTable(table, written[i])).toBe(true));
    expect(markdown).toContain('<th rowspan="2">지역</th><th colspan="2">매출</th>');
    expect(markdown).toContain('<td colspan="2">합계</td><td>30</td>');
  });
});

describe('the HWPX package', () => {
  const PICTURE_MARKDOWN =
    '# 그림\n\n![발사체 사진](images/rocket.png) 아래 설명\n\n![없는 그림](images/missing.png)\n';
  let hwpx: Buffer;
  let entries: Map<string, Buffer>;

  beforeAll(async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3060c0' } })
      .png()
      .toBuffer();
    hwpx = await renderHwpx(readMarkdown(`${PICTURE_MARKDOWN}\n${REPORT}`, 'test.md'), {
      title: '보고서 <초안> & 검토',
      images: new Map([['images/rocket.png', png]]),
    });
    entries = await zipEntries(hwpx);
  });

  it('starts with the mimetype entry, stored uncompressed', () => {
    expect(hwpx.readUInt32LE(0)).toBe(0x04034b50);
    const method = hwpx.readUInt16LE(8);
    const nameLength = hwpx.readUInt16LE(26);
    const extraLength = hwpx.readUInt16LE(28);
    expect(hwpx.subarray(30, 30 + nameLength).toString()).toBe('mimetype');
    expect(method).toBe(0);
    const start = 30 + nameLength + extraLength;
    expect(hwpx.subarray(start, start + HWPX_MIMETYPE.length).toString()).toBe(HWPX_MIMETYPE);
  });

  it('holds well-formed parts', () => {
    for (const name of ['Contents/header.xml', 'Contents/section0.xml', 'Contents/content.hpf', 'version.xml']) {
      expect([name, XMLValidator.validate(entries.get(name)!.toString('utf8'))]).toEqual([name, true]);
    }
    expect(entries.has('META-INF/container.xml')).toBe(true);
    expect(entries.has('settings.xml')).toBe(true);
  });

  it('lists every content part and picture in the manifest, with the title', () => {
    const hpf = entries.get('Contents/content.hpf')!.toString('utf8');
    const listed = new Set([...hpf.matchAll(/<opf:item [^>]*href="([^"]+)"/g)].map((m) => m[1]));
    const parts = [...entries.keys()].filter(
      (name) => (name.startsWith('Contents/') && name !== 'Contents/content.hpf') || name.startsWith('BinData/'),
    );
    expect(parts).toContain('BinData/image1.png');
    for (const part of [...parts, 'settings.xml']) expect(listed).toContain(part);
    expect(hpf).toContain('<opf:title>보고서 &lt;초안&gt; &amp; 검토</opf:title>');
  });

  it('embeds a picture once, referenced from the section, and writes the alt text of a missing one', () => {
    const hpf = entries.get('Contents/content.hpf')!.toString('utf8');
    const section = entries.get('Contents/section0.xml')!.toString('utf8');
    expect(hpf).toContain('<opf:item id="image1" href="BinData/image1.png" media-type="image/png" isEmbeded="1"/>');
    expect(section).toContain('binaryItemIDRef="image1"');
    expect(section).toContain('<hp:shapeComment>발사체 사진</hp:shapeComment>');
    expect([...entries.keys()].filter((name) => name.startsWith('BinData/'))).toHaveLength(1);
    expect(section).toContain('<hp:t>없는 그림</hp:t>');
  });

  it('defines Hangul fonts, outline heading styles and merged cells at their addresses', () => {
    const header = entries.get('Contents/header.xml')!.toString('utf8');
    const section = entries.get('Contents/section0.xml')!.toString('utf8');
    expect(header).toContain('face="함초롬바탕"');
    expect(header).toContain('face="함초롬돋움"');
    expect(header).toContain('<hh:substFont face="바탕"');
    expect(header).toContain('name="개요 1" engName="Outline 1"');
    expect(header).toMatch(/<hh:heading type="OUTLINE" idRef="1" level="2"\/>/);
    const merged = /<hp:tbl [\s\S]*?<\/hp:tbl>/.exec(section)![0];
    expect(merged).toContain('rowCnt="4" colCnt="3"');
    expect(merged).toContain('<hp:cellAddr colAddr="0" rowAddr="0"/><hp:cellSpan colSpan="1" rowSpan="2"/>');
    expect(merged).toContain('<hp:cellAddr colAddr="1" rowAddr="0"/><hp:cellSpan colSpan="2" rowSpan="1"/>');
    expect(merged).toContain('<hp:cellAddr colAddr="0" rowAddr="3"/><hp:cellSpan colSpan="2" rowSpan="1"/>');
    // The slots merges cover have no cells of their own: 12 slots, 3 of them covered.
    expect(merged.match(/<hp:tc /g)).toHaveLength(9);
    expect(merged).not.toContain('<hp:cellAddr colAddr="0" rowAddr="1"/>');
  });
});

/**
 * An independent reader, @ssabrojs/hwpxjs: an ES module, so it runs in a child Node process and
 * prints what it read as JSON. It reads the package metadata, the manifest and the text of the
 * section's paragraphs (it drops the spaces at the ends of each run, and reads no table nested in
 * a paragraph, which is where Hancom Office puts every table).
 */
const INDEPENDENT_READER = `
import { HwpxReader } from '@ssabrojs/hwpxjs';
import { readFileSync } from 'node:fs';
const bytes = readFileSync(process.argv[1]);
const reader = new HwpxReader();
await reader.loadFromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const info = await reader.getDocumentInfo();
const text = await reader.extractText();
process.stdout.write(JSON.stringify({ title: info.metadata.title, manifest: info.summary.manifest, text }));
`;

describe('renderHwpx read by an independent reader', () => {
  it('opens the package and finds the title, the pictures and the text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hwpx-'));
    try {
      const path = join(dir, 'report.hwpx');
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000000' } })
        .png()
        .toBuffer();
      const markdown = `![점](dot.png)\n\n${REPORT}`;
      await writeFile(
        path,
        await renderHwpx(readMarkdown(markdown, 'test.md'), {
          title: '사업 보고서',
          images: new Map([['dot.png', png]]),
        }),
      );
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', INDEPENDENT_READER, path], {
        cwd: join(__dirname, '../../..'),
        encoding: 'utf8',
      });
      const read = JSON.parse(output) as { title: string; manifest: { href: string }[]; text: string };
      expect(read.title).toBe('사업 보고서');
      expect(read.manifest.map((item) => item.href)).toEqual(
        expect.arrayContaining(['Contents/header.xml', 'Contents/section0.xml', 'BinData/image1.png']),
      );
      const lines = read.text.split('\n');
      expect(lines).toEqual(
        expect.arrayContaining(['2024년 사업 보고서', '추진 현황', '첫째 항목', '하위 항목', '실적 표']),
      );
      expect(read.text).toContain('줄바꿈 뒤의 둘째 줄.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
