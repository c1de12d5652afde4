import { readMarkdown } from '@docconv/model';
import { renderDocx } from './render-docx';
import { renderHwpx } from './render-hwpx';
import { renderXlsxBasic } from './render-xlsx-basic';
import { FORMATTED_TABLE } from './testing/formatted-table';
import { readWorkbook } from './testing/read-workbook';
import { renderPptxInChild } from './testing/render-pptx-in-child';
import { zipEntries } from './testing/zip-entries';

/**
 * Each office writer keeps what the model says about a table: bold and italic runs inside cells, a cell spanning
 * two rows and a cell spanning two columns. Every test opens the file written and reads its XML.
 */

async function part(file: Buffer, path: string): Promise<string> {
  const entry = (await zipEntries(file)).get(path);
  if (!entry) throw new Error(`${path} missing`);
  return entry.toString('utf8');
}

/** The XML of the smallest element named `tag` that holds the text `text`. */
function elementHolding(xml: string, tag: string, text: string): string {
  const open = new RegExp(`<${tag}[ >]`, 'g');
  const at = xml.indexOf(`>${text}<`);
  if (at < 0) throw new Error(`no ${text} in the XML`);
  let start = -1;
  for (const match of xml.matchAll(open)) if (match.index < at) start = match.index;
  const end = xml.indexOf(`</${tag}>`, at);
  if (start < 0 || end < 0) throw new Error(`no <${tag}> around ${text}`);
  return xml.slice(start, end + tag.length + 3);
}

describe('office files keep formatted runs and merged cells of a table', () => {
  it('DOCX: bold and italic runs inside cells, a vertical and a horizontal merge', async () => {
    const document = await part(await renderDocx(FORMATTED_TABLE, { title: 'stock' }), 'word/document.xml');
    expect(elementHolding(document, 'w:r', 'Apples')).toContain('<w:b/>');
    expect(elementHolding(document, 'w:r', 'soon')).toContain('<w:i/>');
    expect(elementHolding(document, 'w:r', 'ripe ')).not.toContain('<w:i/>');
    expect(elementHolding(document, 'w:r', 'Pears')).toContain('<w:i/>');
    expect(elementHolding(document, 'w:r', 'picked')).not.toMatch(/<w:[bi]\/>/);
    expect(elementHolding(document, 'w:tc', 'North')).toContain('<w:vMerge w:val="restart"/>');
    expect(document).toContain('<w:vMerge w:val="continue"/>');
    expect(elementHolding(document, 'w:tc', 'Total')).toContain('<w:gridSpan w:val="2"/>');
  });

  it('XLSX Basic: a mixed cell as rich text, a wholly bold cell in a bold font, both merges', async () => {
    const xlsx = await renderXlsxBasic(FORMATTED_TABLE, { title: 'stock' });
    const strings = await part(xlsx, 'xl/sharedStrings.xml');
    const mixed = elementHolding(strings, 'si', 'soon');
    expect(mixed).toMatch(/<r><rPr>(?:(?!<\/r>).)*<i\/>(?:(?!<\/r>).)*<t[^>]*>soon<\/t><\/r>/);
    expect(mixed).not.toMatch(/<i\/>(?:(?!<\/r>).)*>ripe </);
    const sheet = await part(xlsx, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<mergeCell ref="A2:A3"/>');
    expect(sheet).toContain('<mergeCell ref="A4:B4"/>');
    const cells = (await readWorkbook(xlsx)).worksheets[0];
    expect(cells.getCell('B2').value).toBe('Apples');
    expect(cells.getCell('B2').font).toMatchObject({ bold: true });
    expect(cells.getCell('B3').font).toMatchObject({ italic: true });
    expect(cells.getCell('B3').font?.bold).toBeFalsy();
    expect(cells.getCell('A4').font).toMatchObject({ bold: true });
    expect(cells.getCell('C3').font?.italic).toBeFalsy();
  });

  it('PPTX: bold and italic text runs in table cells, row and column spans', async () => {
    const [deck] = renderPptxInChild([{ document: FORMATTED_TABLE, title: 'stock' }]);
    const slide = await part(deck, 'ppt/slides/slide2.xml');
    expect(elementHolding(slide, 'a:r', 'Apples')).toMatch(/<a:rPr[^>]* b="1"/);
    expect(elementHolding(slide, 'a:r', 'soon')).toMatch(/<a:rPr[^>]* i="1"/);
    expect(elementHolding(slide, 'a:r', 'ripe ')).not.toMatch(/<a:rPr[^>]* i="1"/);
    expect(elementHolding(slide, 'a:r', 'picked')).not.toMatch(/<a:rPr[^>]* [bi]="1"/);
    expect(elementHolding(slide, 'a:tc', 'North')).toMatch(/<a:tc[^>]* rowSpan="2"/);
    expect(elementHolding(slide, 'a:tc', 'Total')).toMatch(/<a:tc[^>]* gridSpan="2"/);
  });

  it('HWPX: bold and italic char properties in cells, cell spans', async () => {
    const hwpx = await renderHwpx(FORMATTED_TABLE, { title: 'stock' });
    const section = await part(hwpx, 'Contents/section0.xml');
    const header = await part(hwpx, 'Contents/header.xml');
    const charPr = (text: string): string =>
      charPrXml(header, /charPrIDRef="(\d+)"/.exec(elementHolding(section, 'hp:run', text))?.[1]);
    expect(charPr('Apples')).toContain('<hh:bold/>');
    expect(charPr('Apples')).not.toContain('<hh:italic/>');
    expect(charPr('soon')).toContain('<hh:italic/>');
    expect(charPr('ripe ')).not.toContain('<hh:italic/>');
    expect(charPr('Total')).toContain('<hh:bold/>');
    expect(elementHolding(section, 'hp:tc', 'North')).toContain('<hp:cellSpan colSpan="1" rowSpan="2"/>');
    expect(elementHolding(section, 'hp:tc', 'Total')).toContain('<hp:cellSpan colSpan="2" rowSpan="1"/>');
  });

  it('a GFM table read from Markdown keeps the bold and italic of its cells (DOCX, PPTX)', async () => {
    const markdown = readMarkdown('| Fruit | Note |\n|---|---|\n| **Apples** | ripe *soon* |\n', 'stock.md');
    const document = await part(await renderDocx(markdown, { title: 'stock' }), 'word/document.xml');
    expect(elementHolding(document, 'w:r', 'Apples')).toContain('<w:b/>');
    expect(elementHolding(document, 'w:r', 'soon')).toContain('<w:i/>');
    const [deck] = renderPptxInChild([{ document: markdown, title: 'stock' }]);
    const slide = await part(deck, 'ppt/slides/slide2.xml');
    expect(elementHolding(slide, 'a:r', 'Apples')).toMatch(/<a:rPr[^>]* b="1"/);
    expect(elementHolding(slide, 'a:r', 'soon')).toMatch(/<a:rPr[^>]* i="1"/);
  });
});

/** The `<hh:charPr>` with that id. */
function charPrXml(header: string, id: string | undefined): string {
  const found = new RegExp(`<hh:charPr id="${id}"[^]*?</hh:charPr>`).exec(header)?.[0];
  if (!found) throw new Error(`no charPr ${id}`);
  return found;
}
