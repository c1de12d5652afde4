import { readXlsx } from '../libs/documents/src/xlsx/extract-xlsx';
import { basename } from 'node:path';
import { checkHashes, recordedHashes, type Differences } from './markdown-hashes/check';
import { evalsetPath } from './evalset';

/**
 * The XLSX reader on the document model, and the ODS and XLS files LibreOffice converts for it:
 * for every dev-set input of these formats the document's Markdown is byte for byte the Markdown
 * the reader wrote before it moved onto the model (markdown-hashes/<format>.json), but for the
 * inputs listed here with why the new Markdown is better. None differs today; an input listed
 * here whose Markdown no longer differs fails too, so the list stays true.
 */
const DIFFERENCES: Record<string, Differences> = {
  xlsx: {},
  ods: {},
  xls: {},
};

describe.each(Object.keys(DIFFERENCES))('the %s reader on the document model', (format) => {
  it('writes every dev-set input as it was recorded, or as listed in DIFFERENCES', async () => {
    const expected = Object.fromEntries(
      Object.keys(recordedHashes(format)).map((path) => [path, path in DIFFERENCES[format] ? 'different' : 'same']),
    );
    expect(await checkHashes(format)).toEqual(expected);
  });
});

describe('the XLSX document', () => {
  it('says, for every block, its file and sheet, and for every table the cells it covers', async () => {
    const path = 'xlsx/xlsx_comments.xlsx';
    const document = await readXlsx(evalsetPath(path), basename(path));
    const tables = document.blocks.filter((block) => block.type === 'table');
    expect(tables.length).toBeGreaterThan(0);
    for (const block of document.blocks) {
      expect(block.from.file).toBe(basename(path));
      expect(block.from.sheet).toEqual(expect.any(String));
      expect(block.written).toBeUndefined();
    }
    for (const table of tables) expect(table.from.cells).toMatch(/^[A-Z]+\d+(:[A-Z]+\d+)?$/);
  });
});
