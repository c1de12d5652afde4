import mammoth from 'mammoth';
import sharp from 'sharp';
import { renderDocx } from './render-docx';
import { zipEntries } from './testing/zip-entries';
import { readMarkdown } from '@docconv/model';

/** The renderer's input: the Markdown read into the model. */
const md = (markdown: string) => readMarkdown(markdown, 'test.md');

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

const FOOTNOTES = `# Notes

A claim[^src] and a repeat[^src], then a missing one[^nope] and \`[^src]\` in code.

[^src]: The **source** of the claim.
`;

const LONG_TEXT_TABLE = `| Description | Qty |
|---|---|
| ${'A long sentence that describes the item in plenty of words, '.repeat(3)}| 3 |
| Short | 12 |
`;

/** A picture 1,600 by 800 pixels, twice the text width. */
function widePicture(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 800, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
}

/** The widths of the table's grid columns, in twips. */
function gridColumns(document: string): number[] {
  return [...document.matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((match) => Number(match[1]));
}

/** The XML of the style with the given id, or '' when there is none. */
function styleXml(styles: string, id: string): string {
  return new RegExp(`<w:style [^>]*w:styleId="${id}"[^]*?</w:style>`).exec(styles)?.[0] ?? '';
}

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
    report = await renderDocx(md(REPORT), { title: 'Quarterly Report.pdf' });
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
    const out = await html(await renderDocx(md(MERGED), { title: 'merged' }));
    expect(out).toContain(
      '<th rowspan="2"><p><strong>Region</strong></p></th><th colspan="2"><p><strong>Sales</strong></p></th>',
    );
    expect(out).toContain('<tr><th><p><strong>Q1</strong></p></th><th><p><strong>Q2</strong></p></th></tr>');
    expect(out).toContain('<tr><td colspan="2"><p>Total</p></td><td><p>30</p></td></tr>');
  });

  it('writes Korean text and tables', async () => {
    const docx = await renderDocx(md(KOREAN), { title: '분기 보고서' });
    const out = await html(docx);
    expect(out).toContain('<h1>분기 보고서</h1>');
    expect(out).toContain('<h2>매출 현황</h2>');
    expect(out).toContain('서울 지역의 매출이 <strong>증가</strong>했습니다.');
    expect(out).toContain('<td><p>부산</p></td><td><p>2,500원</p></td>');
    expect(await xml(docx, 'docProps/core.xml')).toContain('<dc:title>분기 보고서</dc:title>');
  });

  it('starts each file heading after the first on a new page', async () => {
    const docx = await renderDocx(md(MULTI_FILE), {
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
    expect(await xml(await renderDocx(md(MULTI_FILE), { title: 'job' }), 'word/document.xml')).not.toContain(
      'pageBreakBefore',
    );
  });

  it('sets space after paragraphs and 1.15 line spacing in the Normal style', async () => {
    const normal = styleXml(await xml(report, 'word/styles.xml'), 'Normal');
    expect(normal).toContain('w:after="160"');
    expect(normal).toContain('w:line="276"');
  });

  it("defines Heading 1 to 6 under Word's built-in ids and names, with outline levels", async () => {
    const styles = await xml(report, 'word/styles.xml');
    for (const level of [1, 2, 3, 4, 5, 6]) {
      const heading = styleXml(styles, `Heading${level}`);
      expect(heading).toContain(`<w:name w:val="heading ${level}"/>`);
      expect(heading).toContain(`<w:outlineLvl w:val="${level - 1}"/>`);
      expect(heading).toContain('<w:keepNext/>');
    }
    expect(await xml(report, 'word/document.xml')).toContain('<w:pStyle w:val="Heading1"/>');
  });

  it('declares a font with Hangul for East Asian text', async () => {
    const styles = await xml(report, 'word/styles.xml');
    expect(styleXml(styles, 'Normal')).toMatch(/<w:rFonts [^>]*w:eastAsia="Malgun Gothic"/);
    expect(styleXml(styles, 'Heading1')).toMatch(/<w:rFonts [^>]*w:eastAsia="Malgun Gothic"/);
  });

  it('gives a long-text column more width than a column of short numbers, within the text width', async () => {
    const columns = gridColumns(await xml(await renderDocx(md(LONG_TEXT_TABLE), { title: 't' }), 'word/document.xml'));
    expect(columns).toHaveLength(2);
    expect(columns[0]).toBeGreaterThan(columns[1] * 4);
    expect(columns[1]).toBeGreaterThanOrEqual(700);
    expect(columns[0] + columns[1]).toBe(9_000);
  });

  it('keeps a narrow table narrow and lays it out at the widths given', async () => {
    const document = await xml(report, 'word/document.xml');
    const columns = gridColumns(document);
    expect(columns[0] + columns[1]).toBeLessThan(4_000);
    expect(document).toContain('<w:tblLayout w:type="fixed"/>');
  });

  it('repeats every header row of a multi-row header', async () => {
    const rows = (await xml(await renderDocx(md(MERGED), { title: 'merged' }), 'word/document.xml'))
      .split('<w:tr>')
      .slice(1);
    expect(rows.map((row) => row.includes('<w:tblHeader/>'))).toEqual([true, true, false, false]);
  });

  it('keeps line breaks inside table cells and never prints the asterisks of bold in HTML cells', async () => {
    const docx = await renderDocx(md('<table><tr><th>Name</th></tr><tr><td>**x**<br>second line</td></tr></table>'), {
      title: 't',
    });
    const document = await xml(docx, 'word/document.xml');
    expect(document).not.toContain('**');
    expect(await html(docx)).toContain('<td><p>x</p><p>second line</p></td>');
  });

  it('writes footnotes as Word footnotes and leaves a reference with no definition as text', async () => {
    const docx = await renderDocx(md(FOOTNOTES), { title: 'notes' });
    const document = await xml(docx, 'word/document.xml');
    expect(document.match(/<w:footnoteReference w:id="1"\/>/g)).toHaveLength(1);
    expect(document).not.toContain('The source');
    const footnotes = await xml(docx, 'word/footnotes.xml');
    expect(footnotes).toMatch(/<w:footnote w:id="1">[^]*<w:t[^>]*>source<\/w:t>[^]*<w:t[^>]*> of the claim.<\/w:t>/);
    const text = (await mammoth.extractRawText({ buffer: docx })).value;
    expect(text).toContain('a missing one[^nope] and [^src] in code.');
    const out = await html(docx);
    expect(out).toMatch(/A claim<sup><a href="#footnote-1" id="footnote-ref-1">\[1\]<\/a><\/sup> and a repeat1,/);
    expect(out).toMatch(/<li id="footnote-1"><p> The <strong>source<\/strong> of the claim\./);
  });

  it('embeds pictures scaled to the text width, proportions kept', async () => {
    const images = new Map([['images/wide.png', await widePicture()]]);
    const docx = await renderDocx(md('See ![a chart](images/wide.png) here.'), { title: 'p', images });
    const entries = await zipEntries(docx);
    const media = [...entries.keys()].filter((path) => path.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    const rels = entries.get('word/_rels/document.xml.rels')?.toString('utf8') ?? '';
    const id = new RegExp(`Id="(\\w+)"[^>]*Target="${media[0].slice('word/'.length)}"`).exec(rels)?.[1];
    const document = await xml(docx, 'word/document.xml');
    expect(document).toContain(`r:embed="${id}"`);
    expect(document).toContain('descr="a chart"');
    const [, cx, cy] = /<wp:extent cx="(\d+)" cy="(\d+)"\/>/.exec(document) ?? [];
    expect(Number(cx)).toBe(600 * 9525);
    expect(Number(cy)).toBe(300 * 9525);
    expect(await html(docx)).toMatch(/^<p>See <img alt="a chart" src="data:image\/png;base64,[^"]+" \/> here\.<\/p>$/);
  });

  it('writes a picture the result does not have as its alt text in italics', async () => {
    const out = await html(await renderDocx(md('See ![a chart](images/missing.png) here.'), { title: 'p' }));
    expect(out).toContain('See <em>a chart</em> here.');
  });
});
