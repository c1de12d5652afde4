import type { GreyImage } from './engine';
import { liftRules } from './page-rules';

/** A white page `width` × `height` with black rectangles [x0, y0, x1, y1) painted on it. */
function page(width: number, height: number, rects: [number, number, number, number][]): GreyImage {
  const data = Buffer.alloc(width * height, 255);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) data.fill(0, y * width + x0, y * width + x1);
  return { width, height, data };
}

/** Letters of a word: 12 px strokes 8 px apart, as a line of text leaves gaps between its letters. */
function word(x: number, y: number, letters: number): [number, number, number, number][] {
  return Array.from({ length: letters }, (_, i) => [x + i * 20, y, x + i * 20 + 12, y + 24]);
}

describe('ruling lines of a page image', () => {
  // A 1,000 px wide page (a rule is at least 59 px long, at most 5 px thick): a 2 × 2 grid of
  // 2 px lines, a word in each cell, a word touching the grid's middle rule, and a thick bar.
  const grid: [number, number, number, number][] = [
    [100, 100, 700, 102],
    [100, 200, 700, 202],
    [100, 300, 700, 302],
    [100, 100, 102, 302],
    [400, 100, 402, 302],
    [698, 100, 700, 302],
  ];
  const words = [...word(130, 150, 4), ...word(430, 150, 3), ...word(130, 250, 5), ...word(430, 176, 2)];
  const bar: [number, number, number, number] = [100, 500, 900, 540];
  const image = page(1000, 700, [...grid, ...words, bar]);

  it('finds the horizontal and vertical rules, each at its middle', () => {
    const { rules } = liftRules(image);
    expect(rules.filter((r) => r.y0 === r.y1)).toEqual([
      { x0: 100, y0: 101, x1: 700, y1: 101 },
      { x0: 100, y0: 201, x1: 700, y1: 201 },
      { x0: 100, y0: 301, x1: 700, y1: 301 },
    ]);
    expect(rules.filter((r) => r.x0 === r.x1)).toEqual([
      { x0: 101, y0: 100, x1: 101, y1: 302 },
      { x0: 401, y0: 100, x1: 401, y1: 302 },
      { x0: 699, y0: 100, x1: 699, y1: 302 },
    ]);
  });

  it('paints the rules white and leaves the words and a filled bar as they were', () => {
    const { image: lifted } = liftRules(image);
    const at = (x: number, y: number) => lifted.data[y * lifted.width + x];
    expect([at(300, 101), at(401, 250), at(699, 120)]).toEqual([255, 255, 255]);
    expect([at(135, 160), at(435, 180), at(135, 260)]).toEqual([0, 0, 0]);
    expect(at(500, 520)).toBe(0);
    expect(image.data[101 * 1000 + 300]).toBe(0); // the page read is not changed
  });

  it('takes three or more lines close side by side for hatching (a photograph), and keeps a doubled rule', () => {
    const hatching: [number, number, number, number][] = [0, 1, 2, 3].map((i) => [100, 400 + i * 6, 600, 402 + i * 6]);
    const doubled: [number, number, number, number][] = [
      [100, 600, 600, 602],
      [100, 606, 600, 608],
    ];
    const { rules, image: lifted } = liftRules(page(1000, 700, [...hatching, ...doubled]));
    expect(rules).toEqual([
      { x0: 100, y0: 601, x1: 600, y1: 601 },
      { x0: 100, y0: 607, x1: 600, y1: 607 },
    ]);
    expect(lifted.data[401 * 1000 + 300]).toBe(0); // the hatching stays in the picture
  });

  it("takes the sides of a one-row table's cells, shorter than a rule, for rules: they run from one horizontal rule to the other", () => {
    // 40 px between the rules (a rule is at least 59 px long); a letter's stem as tall, clear of them.
    const row: [number, number, number, number][] = [
      [100, 100, 700, 102],
      [100, 140, 700, 142],
      [100, 100, 102, 142],
      [300, 100, 302, 142],
      [698, 100, 700, 142],
    ];
    const stem: [number, number, number, number] = [500, 104, 503, 138];
    const { rules, image: lifted } = liftRules(page(1000, 700, [...row, stem]));
    expect(rules.filter((r) => r.x0 === r.x1)).toEqual([
      { x0: 101, y0: 100, x1: 101, y1: 142 },
      { x0: 301, y0: 100, x1: 301, y1: 142 },
      { x0: 699, y0: 100, x1: 699, y1: 142 },
    ]);
    expect(lifted.data[120 * 1000 + 501]).toBe(0); // the stem stays
  });

  it("takes a column's side carried on past the last rule into a row left open below (a total) for a rule, not a stem on a rule", () => {
    // A doubled rule at 200 and 206 over the total row; the middle side goes on under it 30 px (a rule is at least 59 px long).
    const table: [number, number, number, number][] = [
      [100, 100, 700, 102],
      [100, 200, 700, 202],
      [100, 206, 700, 208],
      [400, 100, 402, 200],
      [400, 208, 402, 238],
    ];
    const stem: [number, number, number, number] = [550, 208, 553, 238];
    const { rules, image: lifted } = liftRules(page(1000, 700, [...table, stem]));
    expect(rules.filter((r) => r.x0 === r.x1)).toEqual([
      { x0: 401, y0: 100, x1: 401, y1: 202 },
      { x0: 401, y0: 206, x1: 401, y1: 238 },
    ]);
    expect(lifted.data[220 * 1000 + 401]).toBe(255);
    expect(lifted.data[220 * 1000 + 551]).toBe(0); // the stem stays
  });

  it("paints a rule's lighter, blurred edges white with it", () => {
    const image = page(1000, 700, [[100, 300, 700, 302], ...word(130, 400, 3)]);
    for (const y of [299, 302]) image.data.fill(170, y * 1000 + 100, y * 1000 + 700);
    const { image: lifted } = liftRules(image);
    expect([299, 300, 301, 302].map((y) => lifted.data[y * 1000 + 400])).toEqual([255, 255, 255, 255]);
    expect(lifted.data[410 * 1000 + 135]).toBe(0);
  });

  it('gives a page without rules back as it is', () => {
    const plain = page(1000, 700, words);
    const lifted = liftRules(plain);
    expect(lifted.rules).toEqual([]);
    expect(lifted.image).toBe(plain);
  });
});
