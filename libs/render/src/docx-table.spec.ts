import { columnWidths } from './docx-table';
import type { Table } from './table-model';

function table(header: string[], ...rows: string[][]): Table {
  return { header: [header], rows, merges: [] };
}

describe('columnWidths', () => {
  it('gives each column its longest line when the table fits', () => {
    const [name, amount] = columnWidths(table(['Name', 'Amount'], ['Alexandra Smith', '12']), 9_000);
    expect(name).toBeGreaterThan(amount);
    expect(name + amount).toBeLessThan(9_000);
  });

  it('counts Hangul as wide characters', () => {
    const [korean, latin] = columnWidths(table(['한국형발사체', 'abcdef']), 9_000);
    expect(korean).toBeGreaterThan(latin * 1.5);
  });

  it('shares the text width by how much more than its longest word each column wants', () => {
    const prose = 'words '.repeat(60).trim();
    const widths = columnWidths(table(['Item', 'Notes', 'Qty'], ['A-1', prose, '7'], ['B-22', prose, '1,250']), 9_000);
    expect(widths.reduce((sum, width) => sum + width, 0)).toBe(9_000);
    const [item, notes, qty] = widths;
    expect(notes).toBeGreaterThan(6_000);
    expect(item).toBeGreaterThanOrEqual(700);
    expect(qty).toBeGreaterThanOrEqual(900);
  });

  it('lets a long header word wrap rather than take width from a column of prose', () => {
    const prose = 'a long description of what the row means '.repeat(4).trim();
    const widths = columnWidths(
      table(
        ['Action', 'QIBM_DB_SECADM', 'QIBM_DB_SQLADM', 'QIBM_DB_SYSMON', 'QIBM_DB_DDMDRDA'],
        [prose, 'X', '', 'X', ''],
      ),
      9_000,
    );
    expect(widths[0]).toBeGreaterThan(widths[1] * 2);
  });

  it('scales the columns down to the text width when even their words do not fit', () => {
    const widths = columnWidths(table(Array.from({ length: 20 }, (_, i) => `Column${i}`)), 9_000);
    expect(widths.reduce((sum, width) => sum + width, 0)).toBe(9_000);
    expect(new Set(widths.slice(0, -1)).size).toBe(1);
  });
});
