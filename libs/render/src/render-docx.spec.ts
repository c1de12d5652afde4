import mammoth from 'mammoth';
import { renderDocx } from './render-docx';
import { zipEntries } from './testing/zip-entries';

const REPORT = `# Quarterly Report

Intro with **bold**, *italic*, ~~struck~~, \`inline code\` and a [link](https://example.com/docs).

<!-- page 2 -->

## Sales

| Region | Revenue |
|---|---|
| North | $1,200.50 |
| South | 980 |

- apples
  - green **apples**
- pears

3. third
4. fourth

\`\`\`
const total = 1;
return total;
\`\`\`

Energy: $E = mc^2$ and $\\{x\\}$.
`;

const MERGED = `## Merged

<table>
<tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr>
<tr><th>Q1</th><th>Q2</th></tr>
<tr><td>North</td><td>10</td><td>20</td></tr>
<tr><td colspan="2">Total</td><td>30</td></tr>
</table>
`;

const KOREAN = `# 분기 보고서

## 매출 현황

서울 지역의 매출이 **증가**했습니다.

| 지역 | 매출 |
|---|---|
| 서울 | 1,000원 |
| 부산 | 2,500원 |
`;

const MULTI_FILE = `## reports/a.pdf

First file.

## reports/b.pdf

Second file.

## Not a file

Still the second file.

## c.txt

Third file.
`;

async function html(docx: Buffer): Promise<string> {
  const styleMap = ["p[style-name='Code Block'] => pre.code:separator('\\n')"];
  return (await mammoth.convertToHtml({ buffer: docx }, { styleMap })).value;
}

async function xml(docx: Buffer, path: string): Promise<string> {
  const entry = (await zipEntries(docx)).get(path);
  if (!entry) throw new Error(`${path} missing`);
  return entry.toString('utf8');
}

describe('renderDocx', () => {
  let report: Buffer;
  beforeAll(async () => {
    report = await renderDocx(REPORT, { title: 'Quarterly Report.pdf' });
  });

  it('writes headings in Word heading styles', async () => {
    const out = await html(report);
    expect(out).toContain('<h1>Quarterly Report</h1>');
    expect(out).toContain('<h2>Sales</h2>');
  });

  it('keeps inline formatting and real hyperlinks', async () => {
    const out = await html(report);
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>italic</em>');
    expect(out).toContain('<s>struck</s>');
    expect(out).toContain('<a href="https://example.com/docs">link</a>');
    expect(await xml(report, 'word/document.xml')).toMatch(/w:ascii="Consolas"[^]*?<w:t[^>]*>inline code<\/w:t>/);
  });

  it('writes nested bulleted and numbered lists on Word numbering', async () => {
    const out = await html(report);
    expect(out).toContain('<ul><li>apples<ul><li>green <strong>apples</strong></li></ul></li><li>pears</li></ul>');
    expect(out).toContain('<ol><li>third</li><li>fourth</li></ol>');
    expect(await xml(report, 'word/numbering.xml')).toContain('<w:start w:val="3"/>');
  });

  it('writes tables with a bold, shaded, repeating header row', async () => {
    const out = await html(report);
    expect(out).toContain('<th><p><strong>Region</strong></p></th><th><p><strong>Revenue</strong></p></th>');
    expect(out).toContain('<td><p>North</p></td><td><p>$1,200.50</p></td>');
    const document = await xml(report, 'word/document.xml');
    expect(document).toContain('<w:tblHeader/>');
    expect(document).toMatch(/<w:shd [^>]*w:fill="D9E2F3"/);
    expect(document).toMatch(/<w:insideH [^>]*w:val="single"/);
  });

  it('writes code blocks in the monospace code style', async () => {
    expect(await html(report)).toContain('<pre class="code">const total = 1;\nreturn total;</pre>');
    expect(await xml(report, 'word/styles.xml')).toMatch(/w:styleId="CodeBlock"[\s\S]*?w:ascii="Consolas"/);
  });

  it('keeps math as text and drops HTML comments', async () => {
    const text = (await mammoth.extractRawText({ buffer: report })).value;
    expect(text).toContain('Energy: $E = mc^2$ and $\\{x\\}$.');
    expect(text).not.toContain('page 2');
  });

  it('puts the title in the core properties', async () => {
    expect(await xml(report, 'docProps/core.xml')).toContain('<dc:title>Quarterly Report.pdf</dc:title>');
  });

  it('writes HTML tables with row and column spans', async () => {
    const out = await html(await renderDocx(MERGED, { title: 'merged' }));
    expect(out).toContain(
      '<th rowspan="2"><p><strong>Region</strong></p></th><th colspan="2"><p><strong>Sales</strong></p></th>',
    );
    expect(out).toContain('<tr><th><p><strong>Q1</strong></p></th><th><p><strong>Q2</strong></p></th></tr>');
    expect(out).toContain('<tr><td colspan="2"><p>Total</p></td><td><p>30</p></td></tr>');
  });

  it('writes Korean text and tables', async () => {
    const docx = await renderDocx(KOREAN, { title: '분기 보고서' });
    const out = await html(docx);
    expect(out).toContain('<h1>분기 보고서</h1>');
    expect(out).toContain('<h2>매출 현황</h2>');
    expect(out).toContain('서울 지역의 매출이 <strong>증가</strong>했습니다.');
    expect(out).toContain('<td><p>부산</p></td><td><p>2,500원</p></td>');
    expect(await xml(docx, 'docProps/core.xml')).toContain('<dc:title>분기 보고서</dc:title>');
  });

  it('starts each file heading after the first on a new page', async () => {
    const docx = await renderDocx(MULTI_FILE, {
      title: 'job',
      fileHeadings: ['reports/a.pdf', 'reports/b.pdf', 'c.txt'],
    });
    const paragraphs = (await xml(docx, 'word/document.xml')).split('<w:p>').slice(1);
    const breaking = paragraphs
      .filter((paragraph) => paragraph.includes('<w:pageBreakBefore/>'))
      .map((paragraph) => paragraph.replace(/<[^>]+>/g, ''));
    expect(breaking).toEqual(['reports/b.pdf', 'c.txt']);
  });

  it('adds no page breaks without file headings', async () => {
    expect(await xml(await renderDocx(MULTI_FILE, { title: 'job' }), 'word/document.xml')).not.toContain(
      'pageBreakBefore',
    );
  });
});
