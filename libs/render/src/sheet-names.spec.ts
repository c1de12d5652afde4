import { SheetNamer, cleanSheetName } from './sheet-names';

describe('cleanSheetName', () => {
  it('replaces forbidden characters and trims apostrophes', () => {
    expect(cleanSheetName("'reports/2024\\q1: [draft]?*'")).toBe('reports-2024-q1 draft');
  });

  it('keeps at most 31 characters without splitting a surrogate pair', () => {
    expect(cleanSheetName('x'.repeat(40))).toHaveLength(31);
    const name = cleanSheetName(`${'a'.repeat(30)}😀`);
    expect(name).toBe('a'.repeat(30));
  });
});

describe('SheetNamer', () => {
  it('numbers repeated names, ignoring case, and keeps reserved ones free', () => {
    const names = new SheetNamer();
    names.reserve('Text');
    expect([names.next('Sales'), names.next('sales'), names.next('SALES'), names.next('text')]).toEqual([
      'Sales',
      'sales (2)',
      'SALES (3)',
      'text (2)',
    ]);
  });

  it('falls back for blank names and refuses History', () => {
    const names = new SheetNamer();
    expect([names.next(null), names.next(' :?: '), names.next('History')]).toEqual([
      'Table',
      'Table (2)',
      'History (2)',
    ]);
  });

  it('shortens a long name to fit its suffix within 31 characters', () => {
    const names = new SheetNamer();
    const long = 'A very long heading that goes on and on';
    const first = names.next(long);
    const second = names.next(long);
    expect(first).toBe('A very long heading that goes');
    expect(second).toBe('A very long heading that (2)');
    expect(names.next('Table 3-1   Special registers and their corresponding values')).toBe(
      'Table 3-1 Special registers and',
    );
  });
});
