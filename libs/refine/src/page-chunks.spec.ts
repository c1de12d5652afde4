import { markdownBlocks, splitIntoPages } from './page-chunks';

describe('splitIntoPages', () => {
  it('cuts between blocks into about equal pieces, never more than the pages', () => {
    const blocks = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20)}`.trim());
    const chunks = splitIntoPages(blocks.join('\n\n'), 3);
    expect(chunks).toHaveLength(3);
    expect(chunks.join('\n\n')).toBe(blocks.join('\n\n'));
    for (const chunk of chunks) expect(chunk.split('\n\n')).toHaveLength(4);
  });

  it('keeps fenced code and HTML tables whole, even with blank lines inside', () => {
    const markdown = [
      'Intro',
      '```',
      'a',
      '',
      'b',
      '```',
      '<table>',
      '<tr><td>x</td></tr>',
      '',
      '</table>',
      'End',
    ].join('\n');
    expect(markdownBlocks(markdown)).toEqual([
      ['Intro', '```', 'a', '', 'b', '```', '<table>', '<tr><td>x</td></tr>', '', '</table>', 'End'].join('\n'),
    ]);
    expect(markdownBlocks('One\n\n```\nx\n\ny\n```\n\nTwo')).toEqual(['One', '```\nx\n\ny\n```', 'Two']);
  });

  it('gives fewer pieces than pages when the document has fewer blocks, and none for an empty one', () => {
    expect(splitIntoPages('Only one block', 5)).toEqual(['Only one block']);
    expect(splitIntoPages('  \n', 2)).toEqual([]);
  });
});
