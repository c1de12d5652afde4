import type { OcrLine, OcrResult } from '@docconv/ocr';
import { layoutDocument } from '../pdf/layout-document';
import { parsePgm } from '../pdf/render-page';
import { ocrPageLines, ocrParagraphs } from './ocr-page';

/** An OCR line of words 20 px apart per character, `height` px tall, at (x, y). */
function line(text: string, x: number, y: number, height = 30, paragraph?: string): OcrLine {
  let cursor = x;
  const words = text.split(' ').map((word) => {
    const box = { x: cursor, y, width: word.length * 20, height };
    cursor += (word.length + 1) * 20;
    return { text: word, box, confidence: 90 };
  });
  return { text, box: { x, y, width: cursor - x - 20, height }, confidence: 90, words, paragraph };
}

const result = (lines: OcrLine[]): OcrResult => ({
  engine: 'tesseract',
  width: 2000,
  height: 2800,
  lines,
  confidence: 90,
  notes: [],
  calls: 1,
});

describe('OCR pages', () => {
  it('basic: joins the engine paragraphs in its order and mends hyphenation', () => {
    const markdown = ocrParagraphs([
      line('The first para-', 100, 100, 30, '1.1'),
      line('graph goes on.', 100, 140, 30, '1.1'),
      line('A second one.', 100, 220, 30, '1.2'),
    ]);
    expect(markdown).toBe('The first paragraph goes on.\n\nA second one.');
  });

  it('basic: an address the engine read over two lines is one', () => {
    const markdown = ocrParagraphs([
      line('Read more at https://www.example.org/data/', 100, 100, 30, '1.1'),
      line('tables-2025.html today.', 100, 140, 30, '1.1'),
    ]);
    expect(markdown).toBe('Read more at https://www.example.org/data/tables-2025.html today.');
  });

  it('basic: without engine paragraphs, a tall gap or a jump sideways starts a paragraph', () => {
    const markdown = ocrParagraphs([
      line('one', 100, 100),
      line('two', 100, 140),
      line('three', 100, 240),
      line('four', 900, 280),
    ]);
    expect(markdown).toBe('one two\n\nthree\n\nfour');
  });

  it('premium: larger lines become headings, aligned words a table, in the engine order', () => {
    const lines = [
      line('Annual summary', 100, 100, 60, '1.1'),
      line('Revenue grew in every region this year.', 100, 220, 30, '2.1'),
      line('Region          Sales', 100, 320, 30, '3.1'),
      line('North          120', 100, 360, 30, '3.1'),
      line('South          95', 100, 400, 30, '3.1'),
    ];
    // Wide gaps between the table's columns: move the second word of each table row right.
    for (const l of lines.slice(2)) {
      l.words = l.text.split(/\s+/).map((word, i) => ({
        text: word,
        confidence: 90,
        box: { x: i === 0 ? 100 : 700, y: l.box.y, width: word.length * 20, height: 30 },
      }));
    }
    const markdown = layoutDocument([ocrPageLines(result(lines), 'premium', 72 / 300)]);
    expect(markdown).toMatch(/^# Annual summary\n/);
    expect(markdown).toContain('Revenue grew in every region this year.');
    expect(markdown).toContain('| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |');
  });

  it('premium: the cells of a borderless table, read column by column as lines of their own, make its rows', () => {
    const lines = [
      line('Sales by region', 100, 100, 30),
      line('Region', 100, 300),
      line('North', 100, 340),
      line('South', 100, 380),
      line('Sales', 700, 300),
      line('120', 700, 340),
      line('95', 700, 380),
      line('Both regions grew.', 100, 500),
    ];
    const markdown = layoutDocument([ocrPageLines(result(lines), 'premium', 72 / 300)]);
    expect(markdown).toBe(
      'Sales by region\n\n| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |\n\nBoth regions grew.\n',
    );
  });

  it("premium: a title the engine read after a table's first column (its label in line with the stub) comes before the table", () => {
    // As an engine's cut down the page between the stub and the rest reads it: "Table 4." and the
    // stub column, then the title, then the other columns.
    const lines = [
      line('Table 4.', 100, 100),
      line('Region', 100, 300),
      line('North', 100, 340),
      line('South', 100, 380),
      line('Sales by region and year', 340, 100),
      line('Sales', 700, 300),
      line('120', 700, 340),
      line('95', 700, 380),
      line('Both regions grew.', 100, 500),
    ];
    const markdown = layoutDocument([ocrPageLines(result(lines), 'premium', 72 / 300)]);
    expect(markdown).toBe(
      'Table 4. Sales by region and year\n\n| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |\n\nBoth regions grew.\n',
    );
  });

  it('premium: a marker hanging before the lines of its item is no table', () => {
    const text = [
      'The ministry named the launcher after a public contest held',
      'over five weeks in the spring, with more than ten thousand',
      'entries sent in by the public.',
      'The launcher carries a payload of one and a half tonnes to',
      'a low orbit and is built by one hundred and thirty bodies.',
      'Its first flight is planned for the year after next.',
    ];
    const lines = [
      line('o', 100, 300),
      ...text.slice(0, 3).map((t, i) => line(t, 200, 300 + i * 40)),
      line('o', 100, 460),
      ...text.slice(3).map((t, i) => line(t, 200, 460 + i * 40)),
    ];
    const markdown = layoutDocument([ocrPageLines(result(lines), 'premium', 72 / 300)]);
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('held over five weeks');
  });

  it('premium: a table ruled on the page is built from its rules and the words in its cells, where it stands', () => {
    // The engine reads each cell as a line of its own (as EasyOCR does), column by column.
    const lines = [
      line('Prices by region', 100, 100, 30, '1.1'),
      line('Region', 220, 300),
      line('North', 220, 400),
      line('South', 220, 500),
      line('Price', 820, 300),
      line('12.5', 820, 400),
      line('9.0', 820, 500),
      line('Prices fell in the south.', 100, 700, 30, '4.1'),
    ];
    const rules = [280, 380, 480, 580].map((y) => ({ x0: 200, y0: y, x1: 1400, y1: y }));
    rules.push(...[200, 800, 1400].map((x) => ({ x0: x, y0: 280, x1: x, y1: 580 })));
    const markdown = layoutDocument([ocrPageLines({ ...result(lines), rules }, 'premium', 72 / 300)]);
    expect(markdown).toBe(
      'Prices by region\n\n| Region | Price |\n| --- | --- |\n| North | 12.5 |\n| South | 9.0 |\n\nPrices fell in the south.\n',
    );
    // Basic keeps the engine's paragraphs: no table.
    expect(layoutDocument([ocrPageLines({ ...result(lines), rules }, 'basic', 72 / 300)])).not.toContain('|');
  });

  it('premium: a caption set just above a ruled table, its box reaching past the top rule, stays out of the header', () => {
    // An engine's box runs below the type's baseline (descenders, a margin): this caption's ends 6 px under the rule.
    const lines = [
      line('Table 2: Prices by region', 220, 236, 50, '1.1'),
      line('Region', 220, 300, 50),
      line('North', 220, 400, 50),
      line('South', 220, 500, 50),
      line('Price', 820, 300, 50),
      line('12.5', 820, 400, 50),
      line('9.0', 820, 500, 50),
    ];
    const rules = [280, 380, 480, 580].map((y) => ({ x0: 200, y0: y, x1: 1400, y1: y }));
    rules.push(...[200, 800, 1400].map((x) => ({ x0: x, y0: 280, x1: x, y1: 580 })));
    const markdown = layoutDocument([ocrPageLines({ ...result(lines), rules }, 'premium', 72 / 300)]);
    expect(markdown).toBe(
      'Table 2: Prices by region\n\n| Region | Price |\n| --- | --- |\n| North | 12.5 |\n| South | 9.0 |\n',
    );
  });
});

describe('PGM images', () => {
  it('reads a binary PGM with a comment in its header', () => {
    const pixels = Buffer.from([0, 128, 255, 7, 8, 9]);
    const image = parsePgm(Buffer.concat([Buffer.from('P5\n# made by a scanner\n3 2\n255\n'), pixels]));
    expect(image).toEqual({ width: 3, height: 2, data: pixels });
  });

  it('refuses a truncated or 16-bit one', () => {
    expect(() => parsePgm(Buffer.concat([Buffer.from('P5\n3 2\n255\n'), Buffer.from([1, 2])]))).toThrow(/truncated/);
    expect(() => parsePgm(Buffer.from('P5\n3 2\n65535\n'))).toThrow(/8-bit/);
    expect(() => parsePgm(Buffer.from('P6\n3 2\n255\n'))).toThrow(/not a binary PGM/);
  });
});
