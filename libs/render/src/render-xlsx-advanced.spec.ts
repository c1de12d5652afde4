import { ValueType, type Workbook } from 'exceljs';
import { matchColumns, renderXlsxAdvanced, resolveMapping } from './render-xlsx-advanced';
import { readWorkbook, sheetNamed, sheetValues } from './testing/read-workbook';
import { zipEntries } from './testing/zip-entries';
import { readMarkdown } from '@docconv/model';

function utc(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

/** An invoice whose line-item table continues after a page break, with a differently written header. */
const INVOICE = `# Invoice 2024-017

Customer: ACME Corp.
Invoice date: 2024-03-05
[00:12] Speaker: not a field
This label is far too long to be a field label really: no

## Line items

| Item | Unit Price | Qty | Discount | Delivered |
|---|---|---|---|---|
| Widget | $1,200.00 | 3 | 12.5% | 2024-03-05 |
| Gadget with a rather long descriptive name that goes on | €15 | 1,000 | 0% | 5 March 2024 |

<!-- page 2 -->

Notes between the two parts.

| item | unit price: | QTY | discount | delivered |
|---|---|---|---|---|
| Gizmo | ₩1,000 | 2 | 7.25% | 2024년 3월 5일 |

## Contacts

| Name | E-mail |
|---|---|
| Kim | kim@example.com |
`;

/** The workbook's bytes, read back. */
async function advanced(markdown: string, columns: string[] | null = null): Promise<Workbook> {
  return readWorkbook((await renderXlsxAdvanced(readMarkdown(markdown, 'test.md'), { title: 't', columns })).bytes);
}

describe('renderXlsxAdvanced', () => {
  let workbook: Workbook;
  let bytes: Buffer;
  beforeAll(async () => {
    ({ bytes } = await renderXlsxAdvanced(readMarkdown(INVOICE, 'test.md'), {
      title: 'invoice.pdf',
      columns: ['Item', 'Price', 'Qty', 'Name', 'Missing'],
    }));
    workbook = await readWorkbook(bytes);
  });

  it('lays out Contents, Mapped, the joined tables and Text, with no sheet guessed from the prose', () => {
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual(['Contents', 'Mapped', 'Line items', 'Contacts', 'Text']);
    expect(workbook.title).toBe('invoice.pdf');
  });

  it('links every table sheet from Contents with its size', () => {
    const rows = sheetValues(sheetNamed(workbook, 'Contents'));
    expect(rows[0]).toEqual(['Sheet', 'Table', 'Rows', 'Columns', 'Totals as formulas', 'Totals not matching']);
    expect(rows.slice(1, 3)).toEqual([
      [{ text: 'Line items', hyperlink: "#'Line items'!A1" }, 'Line items', 3, 5, 0, 0],
      [{ text: 'Contacts', hyperlink: "#'Contacts'!A1" }, 'Contacts', 1, 2, 0, 0],
    ]);
  });

  it('joins tables with the same columns into one sheet with the header once', () => {
    const rows = sheetValues(sheetNamed(workbook, 'Line items'));
    expect(rows[0]).toEqual(['Item', 'Unit Price', 'Qty', 'Discount', 'Delivered']);
    expect(rows.slice(1).map((row) => row[0])).toEqual([
      'Widget',
      'Gadget with a rather long descriptive name that goes on',
      'Gizmo',
    ]);
  });

  it('types numbers, percentages, money and dates with matching formats', () => {
    const ws = sheetNamed(workbook, 'Line items');
    const cells = ['B2', 'C2', 'D2', 'E2', 'B3', 'C3', 'E3', 'B4', 'D4', 'E4'].map((address) => {
      const cell = ws.getCell(address);
      return [address, cell.value, cell.numFmt];
    });
    expect(cells).toEqual([
      ['B2', 1200, '"$"#,##0.00'],
      ['C2', 3, '0'],
      ['D2', 0.125, '0.0%'],
      ['E2', utc(2024, 3, 5), 'yyyy-mm-dd'],
      ['B3', 15, '"€"#,##0'],
      ['C3', 1000, '#,##0'],
      ['E3', utc(2024, 3, 5), 'yyyy-mm-dd'],
      ['B4', 1000, '"₩"#,##0'],
      ['D4', 0.0725, '0.00%'],
      ['E4', utc(2024, 3, 5), 'yyyy-mm-dd'],
    ]);
    expect(ws.getCell('A2').type).toBe(ValueType.String);
    expect(ws.getCell('E2').type).toBe(ValueType.Date);
  });

  it('makes each table sheet an Excel table with filter buttons, a frozen bold header and widths from content', async () => {
    const entries = await zipEntries(bytes);
    const tables = [...entries.keys()].filter((name) => /^xl\/tables\/.+\.xml$/.test(name)).sort();
    expect(tables).toEqual(['xl/tables/table1.xml', 'xl/tables/table2.xml']);
    const first = entries.get('xl/tables/table1.xml')!.toString('utf8');
    expect(first).toContain('ref="A1:E4"');
    expect(first).toContain('<autoFilter ref="A1:E4"');
    const ws = sheetNamed(workbook, 'Line items');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('C1').font?.bold).toBe(true);
    const itemWidth = ws.getColumn(1).width ?? 0;
    expect(itemWidth).toBeGreaterThan(ws.getColumn(3).width ?? 0);
    expect(itemWidth).toBeLessThanOrEqual(60);
  });

  it('fills the Mapped sheet from every table by header, leaving unmatched columns empty', () => {
    const ws = sheetNamed(workbook, 'Mapped');
    const rows = sheetValues(ws);
    expect(rows[0]).toEqual(['Item', 'Price', 'Qty', 'Name', 'Missing']);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2], row[3], row[4]])).toEqual([
      ['Widget', 1200, 3, undefined, undefined],
      ['Gadget with a rather long descriptive name that goes on', 15, 1000, undefined, undefined],
      ['Gizmo', 1000, 2, undefined, undefined],
      [undefined, undefined, undefined, 'Kim', undefined],
    ]);
    expect(ws.getCell('B2').numFmt).toBe('"$"#,##0.00');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBe('A1:E5');
  });

  it('keeps the rest of the document on the Text sheet', () => {
    const lines = sheetValues(sheetNamed(workbook, 'Text')).map((row) => row[0]);
    expect(lines).toContain('Notes between the two parts.');
    expect(lines).toContain('Customer: ACME Corp.');
    expect(lines).not.toContain('Widget');
  });

  it('says on Contents that a document without tables has none, and guesses nothing', async () => {
    const prose = await advanced('# Notes\n\nWHERE <logic to test>: user and/or group\n\nCustomer: ACME\n');
    expect(prose.worksheets.map((ws) => ws.name)).toEqual(['Contents', 'Text']);
    expect(sheetNamed(prose, 'Contents').getCell('A1').value).toBe('This document has no tables.');
  });

  it('flattens a two-row header into named columns and repeats row-spanning values', async () => {
    const markdown =
      '## 지역\n\n<table><tr><th rowspan="2">지역</th><th colspan="2">매출</th></tr><tr><th>1분기</th><th>2분기</th></tr>' +
      '<tr><td rowspan="2">서울</td><td>1,000원</td><td>2,000원</td></tr><tr><td>3,000원</td><td>4,000원</td></tr></table>\n';
    const ws = sheetNamed(await advanced(markdown, ['지역', '1분기']), '지역');
    expect(sheetValues(ws)).toEqual([
      ['지역', '매출 1분기', '매출 2분기'],
      ['서울', 1000, 2000],
      ['서울', 3000, 4000],
    ]);
    expect(ws.model.merges).toEqual([]);
    expect(ws.getCell('B2').numFmt).toBe('#,##0"원"');
  });

  it('moves a unit every cell repeats into the header', async () => {
    const ws = (
      await advanced('| Part | Weight | Staff |\n|---|---|---|\n| A | 12 kg | 3명 |\n| B | 7.5 kg | 12명 |\n')
    ).worksheets[1];
    expect(sheetValues(ws)).toEqual([
      ['Part', 'Weight (kg)', 'Staff (명)'],
      ['A', 12, 3],
      ['B', 7.5, 12],
    ]);
  });

  it('joins a table continued without its header to the table before it', async () => {
    const markdown = '| Item | Qty |\n|---|---|\n| a | 1 |\n\n<!-- page 2 -->\n\n| b | 2 |\n|---|---|\n| c | 3 |\n';
    const book = await advanced(markdown);
    expect(book.worksheets.map((ws) => ws.name)).toEqual(['Contents', 'Table', 'Text']);
    expect(sheetValues(book.worksheets[1])).toEqual([
      ['Item', 'Qty'],
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('writes totals as SUM formulas equal to the printed figures, and reports totals that do not add up', async () => {
    const markdown = [
      '| 지역 | 1분기 | 2분기 |',
      '|---|---|---|',
      '| 서울 | 1,000 | 10.5 |',
      '| 부산 | 2,000 | 20.25 |',
      '| 소계 | 3,000 | 30.75 |',
      '| 대구 | 500 | 1 |',
      '| 합계 | 3,500 | 40 |',
    ].join('\n');
    const { bytes: book, mismatches } = await renderXlsxAdvanced(readMarkdown(markdown, 'test.md'), {
      title: 't',
      columns: null,
    });
    const ws = (await readWorkbook(book)).worksheets[1];
    expect(ws.getCell('B4').value).toEqual({ formula: 'SUM(B2:B3)', result: 3000 });
    expect(ws.getCell('C4').value).toEqual({ formula: 'SUM(C2:C3)', result: 30.75 });
    expect(ws.getCell('B6').value).toEqual({ formula: 'SUM(B2:B3,B5)', result: 3500 });
    expect(ws.getCell('B6').numFmt).toBe('#,##0');
    // 10.5 + 20.25 + 1 is 31.75, not the 40 printed: the figure stays as printed and is reported.
    expect(ws.getCell('C6').value).toBe(40);
    expect(mismatches).toEqual([
      "Sheet 'Table' cell C6: the document prints 40 as a total, but the rows above it add up to 31.75.",
    ]);
  });
});

describe('resolveMapping', () => {
  const headers = ['Item', 'Unit price', 'Qty'];
  const columns = ['item', 'price'];

  it.each([
    ['throws', async () => Promise.reject(new Error('model down'))],
    ['answers too few entries', async () => [0]],
    ['answers an index out of range', async () => [0, 7]],
    ['answers a fraction', async () => [0, 1.5]],
    ['answers something else', async () => 'no' as unknown as (number | null)[]],
  ])('falls back to header matching when mapColumns %s', async (_case, mapColumns) => {
    await expect(resolveMapping(headers, columns, mapColumns)).resolves.toEqual([0, 1]);
  });
});

describe('matchColumns', () => {
  it('matches ignoring case, spacing and punctuation, exact matches first', () => {
    expect(matchColumns(['Unit Price (USD)', 'Price', 'QTY.'], ['price', 'qty', 'unit-price usd'])).toEqual([1, 2, 0]);
  });

  it('matches a header containing the column name or contained in it (closest length first), each header once', () => {
    expect(matchColumns(['Total amount', 'Amount due', 'Date'], ['amount', 'amount', 'invoice date', 'x'])).toEqual([
      1,
      0,
      2,
      null,
    ]);
  });

  it('never matches on an empty name', () => {
    expect(matchColumns(['—', 'Name'], ['()', 'name'])).toEqual([null, 1]);
  });
});
