import { contentText, type Block, type Document } from '@docconv/model';
import { ARTICLE_COLUMNS, drawBandedPage } from './testing/article';
import { readDrawnPdf } from './testing/drawn-pdf';

const text = (block: Block) => ('content' in block ? contentText(block.content) : '');

describe('a two-column page broken by a chart across both columns', () => {
  let document: Document;
  beforeAll(async () => {
    ({ document } = await readDrawnPdf('banded.pdf', drawBandedPage));
  });

  it('reads each column whole above the chart, then the chart and its caption, then each column under it', () => {
    const read = document.blocks
      .filter((b) => b.type !== 'comment')
      .map((b) => (b.type === 'figure' ? `figure: ${b.alt}` : text(b).slice(0, 14)));
    expect(read).toEqual([
      'Sentence 1.1 t',
      'Sentence 2.1 t',
      'figure: Figure 1. Water level over the season, at every buoy.',
      'Figure 1. Wate',
      'Sentence 3.1 t',
      'Sentence 4.1 t',
    ]);
    // No paragraph takes a line of the other column, at the chart or at the columns' feet.
    for (const [seed, count] of [
      [1, 5],
      [2, 5],
      [3, 9],
      [4, 7],
    ]) {
      const paragraph = document.blocks.find((b) => text(b).startsWith(`Sentence ${seed}.1 `))!;
      expect(text(paragraph).match(/Sentence \d+/g)).toEqual(Array(count).fill(`Sentence ${seed}`));
    }
  });

  it('boxes each paragraph within its column, and the chart across both', () => {
    const [[left0, left1], [right0, right1]] = ARTICLE_COLUMNS;
    for (const block of document.blocks.filter((b) => b.type === 'paragraph' && text(b).startsWith('Sentence'))) {
      const [x0, , x1] = block.from.box!;
      const within = (x0 >= left0 - 1 && x1 <= left1 + 1) || (x0 >= right0 - 1 && x1 <= right1 + 1);
      expect({ start: text(block).slice(0, 14), within }).toEqual({ start: text(block).slice(0, 14), within: true });
    }
    const figure = document.blocks.find((b) => b.type === 'figure')!;
    expect(figure.from.box![0]).toBeLessThan(left1);
    expect(figure.from.box![2]).toBeGreaterThan(right0);
  });
});
