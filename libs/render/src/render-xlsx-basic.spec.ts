import { ValueType, type Workbook } from 'exceljs';
import { renderXlsxBasic } from './render-xlsx-basic';
import { readWorkbook, sheetNamed, sheetValues } from './testing/read-workbook';
import { readMarkdown } from '@docconv/model';

const DOCUMENT = `# Report

Intro line one
Intro line two

## Sales: Q1/Q2

| Region | Revenue | Share |
|---|---|---|
| North | $1,200.50 | 12.5% |
| South | 1,000원 | 2024-03-05 |

- first point
  - nested point
1. numbered

## Sales: Q1/Q2

| A | B |
|---|---|
| x | y |

## Text

| K | V |
|---|---|
| k | v |

## 지역별 현황

<!-- page 3 -->

<table>
<tr><th rowspan="2">지역</th><th colspan="2">매출</th></tr>
<tr><th>1분기</th><th>2분기</th></tr>
<tr><td>서울</td><td>10</td><td>20</td></tr>
<tr><td colspan="2">합계</td><td>30</td></tr>
</table>

\`\`\`
SELECT 1;
\`\`\`
`;

describe('renderXlsxBasic', () => {
  let workbook: Workbook;
  beforeAll(async () => {
    workbook = await readWorkbook(await renderXlsxBasic(readMarkdown(DOCUMENT, 'test.md'), { title: 'Report.pdf' }));
  });

  it('puts each table on a sheet named after the heading before it, then the Text sheet', () => {
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual([
      'Sales Q1-Q2',
      'Sales Q1-Q2 (2)',
      'Text (2)',
      '지역별 현황',
      'Text',
    ]);
    expect(workbook.title).toBe('Report.pdf');
  });

  it('stores numbers, money, percentages and dates typed, shown as the document wrote them', () => {
    const ws = sheetNamed(workbook, 'Sales Q1-Q2');
    expect(sheetValues(ws)).toEqual([
      ['Region', 'Revenue', 'Share'],
      ['North', 1200.5, 0.125],
      ['South', 1000, new Date(Date.UTC(2024, 2, 5))],
    ]);
    expect(ws.getCell('B2').type).toBe(ValueType.Number);
    expect([ws.getCell('B2').numFmt, ws.getCell('C2').numFmt, ws.getCell('B3').numFmt]).toEqual([
      '"$"#,##0.00',
      '0.0%',
      '#,##0"원"',
    ]);
    expect(ws.getCell('C3').type).toBe(ValueType.Date);
  });

  it('makes header rows bold and frozen', () => {
    const ws = sheetNamed(workbook, 'Sales Q1-Q2');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('merges the cells an HTML table spans and freezes both header rows', () => {
    const ws = sheetNamed(workbook, '지역별 현황');
    expect([...ws.model.merges].sort()).toEqual(['A1:A2', 'A4:B4', 'B1:C1']);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    expect(ws.getCell('A1').value).toBe('지역');
    expect(ws.getCell('B2').value).toBe('1분기');
    expect(ws.getCell('A3').value).toBe('서울');
    expect(ws.getCell('C4').value).toBe(30);
    expect(ws.getCell('B2').font?.bold).toBe(true);
  });

  it('lists the rest of the document on the Text sheet, one line per row, headings bold', () => {
    const ws = sheetNamed(workbook, 'Text');
    const lines = sheetValues(ws).map((row) => row[0]);
    expect(lines).toEqual([
      'Report',
      'Intro line one',
      'Intro line two',
      'Sales: Q1/Q2',
      '• first point',
      '• nested point',
      '1. numbered',
      'Sales: Q1/Q2',
      'Text',
      '지역별 현황',
      'SELECT 1;',
    ]);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getCell('A6').alignment?.indent).toBeGreaterThan(0);
  });

  it('makes a row as tall as the text its cells wrap to', async () => {
    const long = 'a sentence of several words '.repeat(12).trim();
    const book = await readWorkbook(
      await renderXlsxBasic(readMarkdown(`| Name | Note |\n|---|---|\n| x | short |\n| y | ${long} |\n`, 'test.md'), {
        title: 't',
      }),
    );
    const sheet = book.worksheets[0];
    const width = sheet.getColumn(2).width ?? 0;
    expect(sheet.getRow(2).height ?? 15).toBeLessThanOrEqual(15);
    // 335 characters in a column of at most 60: six lines or more.
    expect(width).toBeLessThanOrEqual(60);
    expect(sheet.getRow(3).height).toBeGreaterThanOrEqual(6 * 15);
  });

  it('prints every sheet one page wide', () => {
    for (const sheet of workbook.worksheets) {
      expect(sheet.pageSetup).toMatchObject({ fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    }
  });

  it('writes a document without tables as a Text sheet alone', async () => {
    const only = await readWorkbook(await renderXlsxBasic(readMarkdown('Just a line.', 'test.md'), { title: 't' }));
    expect(only.worksheets.map((ws) => ws.name)).toEqual(['Text']);
    expect(sheetNamed(only, 'Text').getCell('A1').value).toBe('Just a line.');
  });

  it('names a sheet after the table caption, keeps identifier columns as text and finds headers', async () => {
    const markdown = [
      '## Column mask',
      '',
      'Table 3-1 summarizes these special registers.',
      '',
      'Table 3-1   Special registers and their values',
      '',
      '| Code | Phone | Qty | Start |',
      '|---|---|---|---|',
      '| 0012 | 010-1234-5678 | 5 | 2024-01-01 0:00:00 |',
      '| 1020 | 02-555-0100 | 5000 | 10:30 |',
      '',
      '| 1 | 2 |',
      '|---|---|',
      '| 3 | 4 |',
      '',
      '| Region | Sales | Sales |',
      '|---|---|---|',
      '| | Q1 | Q2 |',
      '| Seoul | 10 | 20 |',
    ].join('\n');
    const book = await readWorkbook(await renderXlsxBasic(readMarkdown(markdown, 'test.md'), { title: 't' }));
    expect(book.worksheets.map((ws) => ws.name)).toEqual([
      'Table 3-1 Special registers and',
      'Column mask',
      'Column mask (2)',
      'Text',
    ]);
    const first = book.worksheets[0];
    expect(sheetValues(first)[1]).toEqual(['0012', '010-1234-5678', 5, new Date(Date.UTC(2024, 0, 1))]);
    expect(first.getCell('C3').value).toBe(5000);
    // A time is the fraction of a day, which ExcelJS reads back as that time on its epoch day.
    expect(first.getCell('D3').value).toEqual(new Date(Date.UTC(1899, 11, 30, 10, 30)));
    expect(first.getCell('D3').numFmt).toBe('h:mm');
    expect(first.getCell('A3').type).toBe(ValueType.String);
    // A header row of the same kind as the rows below it is data: nothing is frozen or bold.
    const numbers = book.worksheets[1];
    expect(sheetValues(numbers)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(numbers.views ?? []).toEqual([]);
    expect(numbers.getCell('A1').font?.bold).toBeFalsy();
    // A row of labels over columns of figures is a second header row.
    const twoRows = book.worksheets[2];
    expect(twoRows.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    expect(twoRows.getCell('B2').font?.bold).toBe(true);
    expect(twoRows.getCell('B3').value).toBe(10);
  });
});
