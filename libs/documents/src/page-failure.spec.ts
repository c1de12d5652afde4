import { writeMarkdown } from '@docconv/model';
import { failedPageBlock, withFailedPages } from './page-failure';

describe('a page that was not read', () => {
  it('is one quoted paragraph naming the page, its reason as text, and that it is not charged', () => {
    const report = {
      page: 3,
      source: 'failed' as const,
      notes: ['Page 3 of scan.pdf was not read: the engine said *no*\nand stopped.'],
    };
    const block = failedPageBlock(report, 'page');
    expect(writeMarkdown({ version: 1, blocks: [block] })).toBe(
      '> **Page 3 was not read:** the engine said \\*no\\* and stopped. It is not charged.\n',
    );
    expect(writeMarkdown({ version: 1, blocks: [failedPageBlock(report, 'image')] })).toMatch(
      /^> \*\*The image was not read:\*\* the engine/,
    );
  });

  it('stands first on its page, which keeps its size, or on a page of its own when the page is unknown', () => {
    const pages = withFailedPages(
      [{ number: 1, width: 600, height: 800, lines: [] }],
      [
        { page: 1, source: 'failed', notes: ['Blank.'] },
        { page: 2, source: 'failed', notes: ['Gone.'] },
      ],
      'frame',
    );
    expect(pages.map((page) => [page.number, page.width, page.lines[0].blocks?.[0].type])).toEqual([
      [1, 600, 'paragraph'],
      [2, 0, 'paragraph'],
    ]);
    expect(pages[1].lines[0].block).toBe('> **Frame 2 was not read:** Gone. It is not charged.');
  });
});
