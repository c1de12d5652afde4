import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import { makeXlsx } from '../../../../test/support/fixtures';
import { formattedSpans, leftoverDelimiters, parseMarkdown, readInline } from '@docconv/model/testing';
import { extractXlsx, formatNumber, readXlsx } from './extract-xlsx';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-xlsx-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function save(bytes: Buffer, name: string): Promise<string> {
  const path = join(folder, `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(path, bytes);
  return path;
}

async function extract(bytes: Buffer, name = 'book.xlsx'): Promise<string> {
  return extractXlsx(await save(bytes, name), name);
}

/** A workbook with formats, merges, rich text, a formula, an offset block and a hidden sheet, written by exceljs. */
async function reportWorkbook(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Report');
  sheet.getCell('B3').value = 'Region';
  sheet.getCell('C3').value = 'Sales';
  sheet.mergeCells('C3:D3');
  sheet.getCell('B4').value = 'North';
  sheet.getCell('C4').value = new Date(Date.UTC(2024, 2, 15));
  sheet.getCell('C4').numFmt = 'yyyy-mm-dd';
  sheet.getCell('D4').value = 0.256;
  sheet.getCell('D4').numFmt = '0.0%';
  sheet.getCell('B5').value = { richText: [{ text: 'So', font: { bold: true } }, { text: 'uth' }] };
  sheet.getCell('C5').value = 1234567.891;
  sheet.getCell('C5').numFmt = '#,##0.00';
  sheet.getCell('D5').value = { formula: 'D4*2', result: 0.512 };
  sheet.getCell('D5').numFmt = '0%';
  sheet.getCell('B6').value = { text: 'Docs', hyperlink: 'https://example.com/docs' };
  sheet.getCell('C6').value = 'a|b\nc';
  sheet.getCell('D6').value = -42.5;
  sheet.getCell('D6').numFmt = '"$"#,##0.00;[Red]("$"#,##0.00)';
  sheet.getCell('F3').value = 'Aside';
  sheet.getCell('F4').value = 7;
  workbook.addWorksheet('Blank');
  const hidden = workbook.addWorksheet('Secret');
  hidden.state = 'hidden';
  hidden.getCell('A1').value = 'hidden value';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('extractXlsx', () => {
  it('writes a heading per sheet that holds values, in workbook order, and leaves empty sheets out', async () => {
    const markdown = await extract(
      await makeXlsx({
        Second: [['b'], [2]],
        Empty: [],
        First: [['a'], [1]],
      }),
    );
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Second', '## First']);
    expect(markdown).toContain('## Second\n\n| b |\n| --- |\n| 2 |');
  });

  it('trims empty edges, writes a table with a merged cell as HTML and shows values as Excel displays them', async () => {
    const markdown = await extract(await reportWorkbook());
    expect(markdown).toContain(
      [
        '<table>',
        '<tr><th>Region</th><th colspan="2">Sales</th></tr>',
        '<tr><td>North</td><td>2024-03-15</td><td>25.6%</td></tr>',
        '<tr><td>South</td><td>1,234,567.89</td><td>51%</td></tr>',
        '<tr><td>Docs</td><td>a|b<br>c</td><td>($42.50)</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('splits blocks separated by empty columns into separate tables and skips hidden and blank sheets', async () => {
    const markdown = await extract(await reportWorkbook());
    expect(markdown).toContain('| Aside |\n| --- |\n| 7 |');
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Report']);
    expect(markdown).not.toContain('hidden value');
  });

  it('reads a workbook declared macro-enabled (XLSM) the same way', async () => {
    const { makeXlsm } = await import('../../../../test/support/fixtures');
    const markdown = await extract(
      await makeXlsm({
        Data: [
          ['name', 'qty'],
          ['bolt', 3],
        ],
      }),
      'book.xlsm',
    );
    expect(markdown).toBe('## Data\n\n| name | qty |\n| --- | --- |\n| bolt | 3 |\n');
  });

  it('reads inline strings, booleans, errors and cells written without references; an empty row starts a new table', async () => {
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row><c t="inlineStr"><is><r><t>Name &amp; </t></r><r><t>kind</t></r><rPh><t>ignored</t></rPh></is></c><c t="b"><v>1</v></c></row>' +
      '<row r="3"><c r="B3" t="e"><v>#DIV/0!</v></c><c r="A3" t="str"><f>A1</f><v>x_x000D_y</v></c></row>' +
      '</sheetData></worksheet>';
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown).toBe('## Only\n\n| Name & kind | TRUE |\n| --- | --- |\n\n| x<br>y | #DIV/0! |\n| --- | --- |\n');
  });

  it('keeps literal asterisks, underscores and tildes in cells from becoming emphasis or strikethrough', async () => {
    const values = ['*draft*', 'snake_case', '__init__', '1~2, 3~4', '5 * 3'];
    const cells = values.map((v, i) => `<c r="${'ABCDE'[i]}1" t="inlineStr"><is><t>${v}</t></is></c>`).join('');
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      `<row r="1">${cells}</row></sheetData></worksheet>`;
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown.split('\n')[2]).toBe('| \\*draft\\* | snake_case | \\_\\_init\\_\\_ | 1\\~2, 3\\~4 | 5 * 3 |');
    expect(formattedSpans(markdown)).toEqual([[`Only${values.join('')}`, '']]);
    expect(leftoverDelimiters(markdown, values.join(''))).toEqual([]);
  });

  it('escapes brackets, backslashes, ampersands and angle brackets in cells only where Markdown would read them', async () => {
    const values = ['Q3 [draft]', '[link](x)', 'C:\\temp\\[1]', 'AT&amp;T &amp;amp;', 'a &lt; b &lt;b&gt;'];
    const cells = values.map((v, i) => `<c r="${'ABCDE'[i]}1" t="inlineStr"><is><t>${v}</t></is></c>`).join('');
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      `<row r="1">${cells}</row></sheetData></worksheet>`;
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown.split('\n')[2]).toBe('| Q3 [draft] | [link\\](x) | C:\\temp\\\\[1] | AT&T \\&amp; | a < b \\<b> |');
    const table = parseMarkdown(markdown).children[1];
    expect(table.type === 'table' && table.children[0].children.map((cell) => readInline(cell))).toEqual(
      ['Q3 [draft]', '[link](x)', 'C:\\temp\\[1]', 'AT&T &amp;', 'a < b <b>'].map((text) => ({ text, syntax: [] })),
    );
  });

  it('writes a merged area once with its spans, hides the values under it and keeps the columns it spans in one table', async () => {
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c><c r="B1" t="inlineStr"><is><t>stale</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c><c r="C2" t="inlineStr"><is><t>y</t></is></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t>z</t></is></c></row>' +
      '</sheetData><mergeCells count="2"><mergeCell ref="A1:C1"/><mergeCell ref="C2:C3"/></mergeCells></worksheet>';
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown).toBe(
      [
        '## Only',
        '',
        '<table>',
        '<tr><th colspan="3">Title</th></tr>',
        '<tr><td>x</td><td></td><td rowspan="2">y</td></tr>',
        '<tr><td>z</td><td></td></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
    expect(markdown).not.toContain('stale');
  });

  it('leaves a merged area whose first cell is empty out, with the values under it', async () => {
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>1</t></is></c><c r="C2" t="inlineStr"><is><t>hidden</t></is></c></row>' +
      '</sheetData><mergeCells count="1"><mergeCell ref="B2:C2"/></mergeCells></worksheet>';
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown).toBe('## Only\n\n| a | b |\n| --- | --- |\n| 1 |  |\n');
  });

  it('separates tables that touch only at a corner but keeps a lone cell that shares columns with its table', async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      `<row r="1">${cell('A1', 'a')}${cell('B1', 'b')}</row>` +
      `<row r="2">${cell('A2', '1')}</row>` +
      `<row r="3">${cell('B3', 'total')}</row>` +
      `<row r="4">${cell('C4', 'c')}${cell('D4', 'd')}</row>` +
      `<row r="5">${cell('C5', '3')}${cell('D5', '4')}</row>` +
      '</sheetData></worksheet>';
    const markdown = await extract(minimalWorkbook(sheet));
    expect(markdown).toBe(
      '## Only\n\n| a | b |\n| --- | --- |\n| 1 |  |\n|  | total |\n\n| c | d |\n| --- | --- |\n| 3 | 4 |\n',
    );
  });

  it('refuses a file that is not a zip with file_processing_failed', async () => {
    const error = await extract(Buffer.from('definitely not a spreadsheet'), 'broken.xlsx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'file_processing_failed' });
    expect((error as DomainError).message).toMatch(/^broken\.xlsx could not be read as an Excel file: .+\. .+/);
  });

  it('names the missing workbook part and malformed sheet XML', async () => {
    const noWorkbook = await extract(makeZip([{ name: 'docProps/app.xml', data: '<Properties/>' }])).catch(
      (e: unknown) => e,
    );
    expect(noWorkbook).toMatchObject({ code: 'file_processing_failed' });
    expect((noWorkbook as Error).message).toContain('no workbook part');

    const malformed = await extract(minimalWorkbook('<worksheet><sheetData><row><c><v>1</v></row></sheetData>')).catch(
      (e: unknown) => e,
    );
    expect(malformed).toBeInstanceOf(DomainError);
    expect((malformed as Error).message).toContain('xl/worksheets/sheet1.xml is not well-formed XML');
  });
});

describe('readXlsx', () => {
  it('builds a heading per sheet and a table per block of cells, with the sheet and the cells each covers', async () => {
    const document = await readXlsx(await save(await reportWorkbook(), 'report.xlsx'), 'report.xlsx');
    const from = { file: 'report.xlsx', sheet: 'Report' };
    expect(document.blocks.map((block) => [block.type, block.from])).toEqual([
      ['heading', from],
      ['table', { ...from, cells: 'B3:D6' }],
      ['table', { ...from, cells: 'F3:F4' }],
    ]);
    const [, table] = document.blocks;
    if (table.type !== 'table') throw new Error('not a table');
    expect(table.headerRows).toBe(1);
    expect(table.rows[0]).toEqual([
      { content: [{ kind: 'text', text: 'Region' }], rowspan: 1, colspan: 1 },
      { content: [{ kind: 'text', text: 'Sales' }], rowspan: 1, colspan: 2 },
    ]);
    // plain text, never escaped: the writer escapes; a line break in a cell is a break
    expect(table.rows[3][1].content).toEqual([
      { kind: 'text', text: 'a|b' },
      { kind: 'break' },
      { kind: 'text', text: 'c' },
    ]);
  });

  it('gives a merged area its spans, leaves the slots under it out and fills empty slots with empty cells', async () => {
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c><c r="C2" t="inlineStr"><is><t>y</t></is></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t>z</t></is></c></row>' +
      '</sheetData><mergeCells count="2"><mergeCell ref="A1:C1"/><mergeCell ref="C2:C3"/></mergeCells></worksheet>';
    const document = await readXlsx(await save(minimalWorkbook(sheet), 'm.xlsx'), 'm.xlsx');
    const table = document.blocks[1];
    if (table.type !== 'table') throw new Error('not a table');
    expect(table.from).toEqual({ file: 'm.xlsx', sheet: 'Only', cells: 'A1:C3' });
    expect(table.rows.map((row) => row.map((cell) => [contentOf(cell.content), cell.rowspan, cell.colspan]))).toEqual([
      [['Title', 1, 3]],
      [
        ['x', 1, 1],
        ['', 1, 1],
        ['y', 2, 1],
      ],
      [
        ['z', 1, 1],
        ['', 1, 1],
      ],
    ]);
  });
});

function contentOf(content: readonly { kind: string; text?: string }[]): string {
  return content.map((inline) => inline.text ?? '').join('');
}

describe('formatNumber', () => {
  it.each([
    [1234.5, 'General', '1234.5'],
    [1 / 3, 'General', '0.333333333'],
    [123456789012, 'General', '1.23457E+11'],
    [1234567.891, '#,##0.00', '1,234,567.89'],
    [1.005, '0.00', '1.01'],
    [-1234, '#,##0;(#,##0)', '(1,234)'],
    [-5, '0', '-5'],
    [0, '0.00;-0.00;"zero"', 'zero'],
    [0.256, '0.0%', '25.6%'],
    [1500000, '#,##0.0,,"M"', '1.5M'],
    [42, '[$€-407] #,##0.00', '€ 42.00'],
    [12, '00000', '00012'],
    [5551234567, '(###) ###-####', '(555) 123-4567'],
    [0.000123, '0.00E+00', '1.23E-04'],
    [1.5, '# ?/?', '1 1/2'],
    [5, '0.##', '5.'],
    [45366, 'yyyy-mm-dd', '2024-03-15'],
    [45366.5, 'd mmm yyyy h:mm AM/PM', '15 Mar 2024 12:00 PM'],
    [45366.25, 'dddd, mmmm d', 'Friday, March 15'],
    [0.75, '[h]:mm:ss', '18:00:00'],
    [1.5, '[h]:mm', '36:00'],
    [0.5, 'mm:ss.0', '00:00.0'],
    [60, 'yyyy-mm-dd', '1900-02-29'],
    [45366, '[$-F800]dddd, mmmm dd, yyyy', 'Friday, March 15, 2024'],
    [150, '[>=100]"big";"small"', 'big'],
    [12.5, '@', '12.5'],
    [7, ';;;', ''],
  ])('%p with %p shows %p', (value, code, shown) => {
    expect(formatNumber(value, code)).toBe(shown);
  });

  it('counts dates from 1904 when the workbook says so', () => {
    expect(formatNumber(0, 'yyyy-mm-dd', true)).toBe('1904-01-01');
  });
});

/** A workbook with one sheet named "Only" whose part is the given XML. */
function minimalWorkbook(sheetXml: string): Buffer {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return makeZip([
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Only" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheetXml },
  ]);
}
