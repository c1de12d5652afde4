import { Workbook, type Worksheet } from 'exceljs';

/** Loads a workbook with ExcelJS (whose typings want an ArrayBuffer rather than a Node Buffer). */
export async function readWorkbook(xlsx: Buffer): Promise<Workbook> {
  const workbook = new Workbook();
  await workbook.xlsx.load(xlsx.buffer.slice(xlsx.byteOffset, xlsx.byteOffset + xlsx.byteLength) as ArrayBuffer);
  return workbook;
}

/** The sheet of that name, failing with the names there are. */
export function sheetNamed(workbook: Workbook, name: string): Worksheet {
  const found = workbook.getWorksheet(name);
  if (!found) throw new Error(`no sheet ${name}; have ${workbook.worksheets.map((ws) => ws.name).join(', ')}`);
  return found;
}

/** Cell values row by row, from A1. */
export function sheetValues(sheet: Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row, number) => {
    rows[number - 1] = (row.values as unknown[]).slice(1);
  });
  return rows;
}
