import { ValueType, type Workbook } from 'exceljs';
import { matchColumns, renderXlsxAdvanced, resolveMapping } from './render-xlsx-advanced';
import { readWorkbook, sheetNamed, sheetValues } from './testing/read-workbook';

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

describe('renderXlsxAdvanced', () => {
  let workbook: Workbook;
  beforeAll(async () => {
    workbook = await readWorkbook(
      await renderXlsxAdvanced(INVOICE, { title: 'invoice.pdf', columns: ['Item', 'Price', 'Qty', 'Name', 'Missing'] }),
    );
  });

  it('lays out Mapped first, then merged tables, Fields and Text', () => {
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual(['Mapped', 'Line items', 'Contacts', 'Fields', 'Text']);
    expect(workbook.title).toBe('invoice.pdf');
  });

  it('merges tables with the same header into one sheet with the header once', () => {
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

  it('adds an autofilter over each table, a frozen bold header and widths from content', () => {
    const ws = sheetNamed(workbook, 'Line items');
    expect(ws.autoFilter).toBe('A1:E4');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('C1').font?.bold).toBe(true);
    const itemWidth = ws.getColumn(1).width ?? 0;
    expect(itemWidth).toBeGreaterThan(ws.getColumn(3).width ?? 0);
    expect(itemWidth).toBeLessThanOrEqual(60);
    expect(sheetNamed(workbook, 'Contacts').autoFilter).toBe('A1:B2');
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

  it('collects "Label: value" lines outside tables into Fields', () => {
    const ws = sheetNamed(workbook, 'Fields');
    expect(sheetValues(ws)).toEqual([
      ['Field', 'Value'],
      ['Customer', 'ACME Corp.'],
      ['Invoice date', utc(2024, 3, 5)],
    ]);
  });

  it('keeps the rest of the document on the Text sheet', () => {
    const lines = sheetValues(sheetNamed(workbook, 'Text')).map((row) => row[0]);
    expect(lines).toContain('Notes between the two parts.');
    expect(lines).toContain('Customer: ACME Corp.');
    expect(lines).not.toContain('Widget');
  });

  it('adds no Mapped or Fields sheet when there is nothing for them', async () => {
    const plain = await readWorkbook(await renderXlsxAdvanced('| a |\n|---|\n| 1 |\n', { title: 't', columns: null }));
    expect(plain.worksheets.map((ws) => ws.name)).toEqual(['Table', 'Text']);
  });

  it('keeps HTML spans as merges under a two-row header', async () => {
    const markdown =
      '## 지역\n\n<table><tr><th rowspan="2">지역</th><th colspan="2">매출</th></tr><tr><th>1분기</th><th>2분기</th></tr>' +
      '<tr><td rowspan="2">서울</td><td>1,000원</td><td>2,000원</td></tr><tr><td>3,000원</td><td>4,000원</td></tr></table>\n';
    const ws = sheetNamed(
      await readWorkbook(await renderXlsxAdvanced(markdown, { title: 't', columns: ['지역', '1분기'] })),
      '지역',
    );
    expect([...ws.model.merges].sort()).toEqual(['A1:A2', 'A3:A4', 'B1:C1']);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    expect(ws.autoFilter).toBe('A2:C4');
    expect([ws.getCell('B3').value, ws.getCell('B3').numFmt]).toEqual([1000, '#,##0"원"']);
  });

  it('fills a row-spanning value into every Mapped row it covers', async () => {
    const markdown =
      '<table><tr><th>지역</th><th>금액</th></tr><tr><td rowspan="2">서울</td><td>1</td></tr><tr><td>2</td></tr></table>\n';
    const mapped = sheetNamed(
      await readWorkbook(await renderXlsxAdvanced(markdown, { title: 't', columns: ['지역', '금액'] })),
      'Mapped',
    );
    expect(sheetValues(mapped)).toEqual([
      ['지역', '금액'],
      ['서울', 1],
      ['서울', 2],
    ]);
  });

  it('uses mapColumns when it answers a valid mapping', async () => {
    const mapColumns = jest.fn(async (): Promise<(number | null)[]> => [null, 1]);
    const markdown = '| Code | Amount |\n|---|---|\n| A1 | 5 |\n';
    const ws = sheetNamed(
      await readWorkbook(await renderXlsxAdvanced(markdown, { title: 't', columns: ['Product', 'Total'], mapColumns })),
      'Mapped',
    );
    expect(mapColumns).toHaveBeenCalledWith(['Code', 'Amount'], ['Product', 'Total']);
    expect(sheetValues(ws)).toEqual([
      ['Product', 'Total'],
      [undefined, 5],
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
