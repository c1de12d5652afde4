import type { OcrLine } from './engine';
import { boxAround, lineFromText, orderLines } from './reading-order';

/** A line of text at (x, y), `width` wide and 30 px high. */
function line(text: string, x: number, y: number, width: number, height = 30): OcrLine {
  return lineFromText(text, { x, y, width, height }, 90);
}

/** `count` lines of one column, 50 px apart, named `<name>1`, `<name>2`, … */
function column(name: string, x: number, top: number, count: number, width = 600): OcrLine[] {
  return Array.from({ length: count }, (_, i) => line(`${name}${i + 1}`, x, top + i * 50, width));
}

/** Rows of the page, as produced by an engine that reads across columns. */
function interleaved(...columns: OcrLine[][]): OcrLine[] {
  const rows = Math.max(...columns.map((c) => c.length));
  return Array.from({ length: rows }, (_, i) => columns.flatMap((c) => (c[i] ? [c[i]] : []))).flat();
}

const texts = (lines: OcrLine[]) => lines.map((l) => l.text);

describe('boxAround', () => {
  it('encloses a tilted quadrilateral in whole pixels', () => {
    expect(
      boxAround(
        [
          [10.4, 20.6],
          [110.2, 18.1],
          [111.7, 48.9],
          [9.9, 51.2],
        ],
        1000,
        1000,
      ),
    ).toEqual({ x: 9, y: 18, width: 103, height: 34 });
  });

  it('clips the box to the image', () => {
    expect(
      boxAround(
        [
          [-5, -3],
          [205, -3],
          [205, 40],
          [-5, 40],
        ],
        200,
        30,
      ),
    ).toEqual({ x: 0, y: 0, width: 200, height: 30 });
  });
});

describe('lineFromText', () => {
  it('gives each word the share of the line its characters take', () => {
    const result = lineFromText('ab  cde', { x: 100, y: 5, width: 70, height: 20 }, 87);
    expect(result.words).toEqual([
      { text: 'ab', confidence: 87, box: { x: 100, y: 5, width: 20, height: 20 } },
      { text: 'cde', confidence: 87, box: { x: 140, y: 5, width: 30, height: 20 } },
    ]);
    expect(result).toMatchObject({ text: 'ab  cde', confidence: 87, box: { x: 100, y: 5, width: 70, height: 20 } });
  });

  it('has no words for an empty text', () => {
    expect(lineFromText('', { x: 0, y: 0, width: 10, height: 10 }, 0).words).toEqual([]);
  });
});

describe('orderLines', () => {
  it('reads one column top to bottom whatever order the lines come in', () => {
    const lines = column('a', 100, 100, 5);
    expect(texts(orderLines([lines[3], lines[0], lines[4], lines[2], lines[1]]))).toEqual([
      'a1',
      'a2',
      'a3',
      'a4',
      'a5',
    ]);
  });

  it('reads the left column before the right one', () => {
    const page = interleaved(column('left', 100, 100, 4), column('right', 800, 100, 4));
    expect(texts(orderLines(page))).toEqual([
      'left1',
      'left2',
      'left3',
      'left4',
      'right1',
      'right2',
      'right3',
      'right4',
    ]);
  });

  it('keeps columns apart when the right column sits a few pixels higher on a skewed scan', () => {
    const left = column('left', 100, 104, 3);
    const right = column('right', 800, 100, 3);
    expect(texts(orderLines(interleaved(right, left)))).toEqual([
      'left1',
      'left2',
      'left3',
      'right1',
      'right2',
      'right3',
    ]);
  });

  it('reads a title over two columns first and a page number under the gutter last', () => {
    const page = [
      line('title', 400, 20, 700, 40),
      ...interleaved(column('left', 100, 100, 3), column('right', 800, 100, 3)),
      line('7', 740, 300, 20),
    ];
    expect(texts(orderLines(page))).toEqual(['title', 'left1', 'left2', 'left3', 'right1', 'right2', 'right3', '7']);
  });

  it('ends the columns above a paragraph that spans them and starts new ones below it', () => {
    const page = [
      ...interleaved(column('a', 100, 100, 2), column('b', 800, 100, 2)),
      line('wide', 100, 200, 1300),
      ...interleaved(column('c', 100, 250, 2), column('d', 800, 250, 2)),
    ];
    expect(texts(orderLines(page))).toEqual(['a1', 'a2', 'b1', 'b2', 'wide', 'c1', 'c2', 'd1', 'd2']);
  });

  it('reads a caption between two columns as a block of its own without breaking the columns', () => {
    const left = column('left', 100, 100, 5, 400);
    const right = column('right', 1000, 100, 5, 400);
    const wideLeft = line('left0', 100, 50, 600);
    const wideRight = line('right0', 800, 50, 600);
    const captions = [line('caption1', 550, 200, 400), line('caption2', 550, 250, 400)];
    const page = [wideLeft, wideRight, ...interleaved(left, captions, right)];
    expect(texts(orderLines(page))).toEqual([
      'left0',
      'left1',
      'left2',
      'left3',
      'left4',
      'left5',
      'caption1',
      'caption2',
      'right0',
      'right1',
      'right2',
      'right3',
      'right4',
      'right5',
    ]);
  });

  it('does not take one line split at a wide gap for two columns', () => {
    const left = [line('a1', 100, 100, 600), line('total', 100, 150, 200), line('42', 600, 150, 100)];
    left.push(line('a3', 100, 200, 600));
    const right = column('b', 800, 100, 3);
    expect(texts(orderLines([...right, ...left]))).toEqual(['a1', 'total', '42', 'a3', 'b1', 'b2', 'b3']);
  });

  it('lets a stray speck at the end of a column not send the next lines to the column beside it', () => {
    const labels = [line('date', 78, 200, 70), line('office', 78, 250, 70)];
    const values = [...column('v', 195, 200, 4, 500), line('x', 190, 400, 12, 12)];
    const body = [line('body1', 78, 500, 640), line('body2', 78, 550, 640)];
    expect(texts(orderLines([...body, ...interleaved(labels, values)]))).toEqual([
      'date',
      'office',
      'v1',
      'v2',
      'v3',
      'v4',
      'x',
      'body1',
      'body2',
    ]);
  });

  it('does not take the gaps of one footer row for a gutter under the left column', () => {
    const columns = interleaved(column('a', 100, 100, 3), column('b', 800, 100, 3));
    const footer = [line('54', 100, 300, 60), line('travel', 150, 300, 250), line('september', 500, 300, 200)];
    const order = texts(orderLines([...columns, ...footer]));
    expect(order.indexOf('a3')).toBeLessThan(order.indexOf('b1'));
  });

  it('does not let a gap far up the page make a gutter of a gap under the left column', () => {
    const header = [line('journal', 100, 0, 50), line('volume', 1200, 0, 200)];
    const columns = interleaved(column('a', 100, 300, 3), column('b', 800, 300, 3));
    const footer = [line('54', 100, 500, 60), line('september', 400, 500, 300)];
    const order = texts(orderLines([...header, ...columns, ...footer]));
    expect(order.indexOf('a3')).toBeLessThan(order.indexOf('b1'));
  });

  it('gives the same order for every order of the same lines', () => {
    const page = [
      line('title', 400, 20, 700, 40),
      ...interleaved(column('left', 100, 100, 3), column('right', 800, 100, 3)),
    ];
    const expected = texts(orderLines(page));
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(texts(orderLines(shuffled(page, seed)))).toEqual(expected);
    }
  });

  it('returns nothing for no lines', () => {
    expect(orderLines([])).toEqual([]);
  });
});

/** A deterministic shuffle (a linear congruential generator seeded with `seed`). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}
