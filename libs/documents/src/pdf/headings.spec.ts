import { contentText, type Block, type Document } from '@docconv/model';
import { ARTICLE_COLUMNS, drawArticle } from './testing/article';
import { readDrawnPdf } from './testing/drawn-pdf';

const text = (block: Block) => ('content' in block ? contentText(block.content) : '');

describe('a two-column article as a PDF', () => {
  let document: Document;
  let markdown: string;
  beforeAll(async () => {
    ({ markdown, document } = await readDrawnPdf('article.pdf', drawArticle));
  });

  const find = (start: string) => {
    const block = document.blocks.find((b) => text(b).startsWith(start));
    if (!block) throw new Error(`no block starts with "${start}" in:\n${markdown}`);
    return block;
  };

  it('heads sections with short lines set apart by size, weight or slant', () => {
    const headings = document.blocks.filter((b) => b.type === 'heading');
    expect(headings.map((h) => [h.type === 'heading' && h.level, text(h)])).toEqual([
      [1, 'Sensing Rivers with Cheap Buoys'],
      [3, '1 Introduction'],
      [4, 'Field sites'],
      [3, '2 Method'],
      [2, 'parse tree'], // set larger than the bold section headings
    ]);
    // A formula in large type is no heading.
    expect(find('x = a + b').type).toBe('paragraph');
    // The italic sub-heading is not run into the paragraph after it.
    expect(find('Sentence 2.1').type).toBe('paragraph');
  });

  it('sets a run-in heading that opens a paragraph in its own weight', () => {
    const paragraph = find('Pond depth.');
    expect(paragraph.type).toBe('paragraph');
    expect('content' in paragraph && paragraph.content[0]).toEqual({ kind: 'text', text: 'Pond depth.', bold: true });
    expect(markdown).toContain('**Pond depth.** Sentence 6.1 tells');
  });

  it('keeps a bold paragraph, a bold sentence and a list in larger type what they are', () => {
    expect(find('Abstract. Sentence 0.1').type).toBe('paragraph');
    expect(text(find('Abstract. Sentence 0.1'))).toContain('Sentence 0.3');
    expect(text(find('In the following tables'))).toBe(
      'In the following tables the levels are given for each site and each month of the season.',
    );
    expect(find('In the following tables').type).toBe('paragraph');
    const items = document.blocks.filter((b) => b.type === 'list_item').map(text);
    expect(items).toEqual(['the water level', 'the water temperature', 'the battery charge']);
  });

  it('reads "A. Author and B. Author" as names, not a list item', () => {
    expect(find('A. Author and B. Author').type).toBe('paragraph');
    expect(markdown).toContain('\nA. Author and B. Author\n');
  });

  it('gives each block of a column a box within that column', () => {
    const [[left0, left1], [right0, right1]] = ARTICLE_COLUMNS;
    const inColumns = document.blocks.filter((b) => b.from.box && b.from.box[1] > 110);
    expect(inColumns.length).toBeGreaterThan(8);
    for (const block of inColumns) {
      const [x0, , x1] = block.from.box!;
      const inLeft = x0 >= left0 - 1 && x1 <= left1 + 1;
      const inRight = x0 >= right0 - 1 && x1 <= right1 + 1;
      expect({ text: text(block).slice(0, 30), box: block.from.box, within: inLeft || inRight }).toMatchObject({
        within: true,
      });
    }
  });
});
