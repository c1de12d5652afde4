import { pageRanges, rangePagesFor } from './parse-runner';

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

  it('gives each slot about two ranges, 5 to 50 pages each, and none to a single slot', () => {
    expect(rangePagesFor(40, 2)).toBe(10);
    expect(rangePagesFor(40, 8)).toBe(5); // not shorter than five pages
    expect(rangePagesFor(150, 4)).toBe(19);
    expect(rangePagesFor(1_000, 2)).toBe(50); // not longer than 50 pages: 20 ranges
    expect(rangePagesFor(1_000, 1)).toBeUndefined();
    expect(rangePagesFor(1_000, 0)).toBeUndefined();
  });
});
