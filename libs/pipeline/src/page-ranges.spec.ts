import { pageRanges, rangePagesFor, spreads } from './page-ranges';

describe('page ranges of a fanned-out parse', () => {
  it('cuts a file into consecutive ranges covering every page once, the last one shorter', () => {
    expect(pageRanges(12, 5)).toEqual([
      { first: 1, last: 5 },
      { first: 6, last: 10 },
      { first: 11, last: 12 },
    ]);
    expect(pageRanges(10, 5)).toEqual([
      { first: 1, last: 5 },
      { first: 6, last: 10 },
    ]);
  });

  it('gives each slot about two ranges of a scanned PDF, 5 to 50 pages each, and none to a single slot', () => {
    const scan = (pages: number) => ({ pages, needsOcr: true });
    expect(rangePagesFor(scan(40), 2)).toBe(10);
    expect(rangePagesFor(scan(40), 8)).toBe(5); // not shorter than five pages
    expect(rangePagesFor(scan(150), 4)).toBe(20); // 19 rounded up to whole blocks of five pages
    expect(rangePagesFor(scan(66), 2)).toBe(20); // 17 rounded up
    expect(rangePagesFor(scan(1_000), 2)).toBe(50); // not longer than 50 pages: 20 ranges
    expect(rangePagesFor(scan(1_000), 1)).toBeUndefined();
    expect(rangePagesFor(scan(1_000), 0)).toBeUndefined();
  });

  it('spreads one PDF with scanned pages from FANOUT_MIN_PAGES, a text PDF from 1,000 pages, nothing else', () => {
    const pdf = (pages: number, needsOcr: boolean) => ({ kind: 'pdf', pages, needsOcr });
    expect(spreads([pdf(20, true)], 20)).toBe(true);
    expect(spreads([pdf(19, true)], 20)).toBe(false);
    expect(spreads([pdf(999, false)], 20)).toBe(false);
    expect(spreads([pdf(1_000, false)], 20)).toBe(true);
    expect(spreads([pdf(1_000, true)], 0)).toBe(false); // turned off
    expect(spreads([pdf(100, true), pdf(100, true)], 20)).toBe(false); // a bundle's files are read one by one
    expect(spreads([{ kind: 'image', pages: 0, needsOcr: false }], 20)).toBe(false);
  });

  it('cuts a text PDF in ranges of up to 500 pages', () => {
    const text = (pages: number) => ({ pages, needsOcr: false });
    expect(rangePagesFor(text(1_000), 2)).toBe(250);
    expect(rangePagesFor(text(10_000), 2)).toBe(500);
    expect(rangePagesFor(text(10_000), 1)).toBeUndefined();
  });
});
