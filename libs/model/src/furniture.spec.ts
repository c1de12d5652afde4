import type { Block, Document } from './document';
import { plain } from './document';
import { asFurniture, withPageFurniture } from './furniture';
import { writeMarkdown, writeMarkdownSpans } from './markdown/write-markdown';

const from = { file: 'report.pdf', page: 1 };
const document: Document = {
  version: 1,
  blocks: [
    { type: 'furniture', role: 'header', text: 'ACME annual report', from },
    { type: 'list_item', depth: 0, content: plain('first'), from },
    { type: 'furniture', role: 'footer', text: '1', from },
    { type: 'list_item', depth: 0, content: plain('second'), from: { ...from, page: 2 } },
    { type: 'furniture', role: 'footer', text: '# 2', from: { ...from, page: 2 } },
  ],
};

describe('withPageFurniture', () => {
  it('drop: no furniture left, and the Markdown is what the writer wrote without it', () => {
    const dropped = withPageFurniture(document, 'drop');
    expect(dropped.blocks.map((block) => block.type)).toEqual(['list_item', 'list_item']);
    expect(writeMarkdown(dropped)).toBe('- first\n- second\n');
    expect(writeMarkdown(document)).toBe('- first\n- second\n');
  });

  it('separate: the furniture stays in the document, out of the Markdown, without spans', () => {
    const separate = withPageFurniture(document, 'separate');
    expect(separate).toBe(document);
    const { blocks } = writeMarkdownSpans(separate);
    expect(blocks.filter((b) => b.block.type === 'furniture').map((b) => b.span)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('keep: the furniture is written where it stands, escaped, ending the list it interrupts', () => {
    const kept = withPageFurniture(document, 'keep');
    expect(writeMarkdown(kept)).toBe('ACME annual report\n\n- first\n\n1\n\n- second\n\n\\# 2\n');
    const { markdown, blocks } = writeMarkdownSpans(kept);
    const spans = blocks.filter((b) => b.block.type === 'furniture').map((b) => markdown.slice(...b.span!));
    expect(spans).toEqual(['ACME annual report', '1', '\\# 2']);
    expect(document.blocks.some((block) => block.type === 'furniture' && block.shown)).toBe(false);
  });
});

describe('asFurniture', () => {
  it('one furniture block for each block of a header that shows text, a table by its cells', () => {
    const blocks: Block[] = [
      { type: 'paragraph', content: plain('국가연구개발사업  보고서'), from },
      { type: 'paragraph', content: [], from },
      {
        type: 'table',
        headerRows: 0,
        rows: [
          [
            { content: plain('기관'), rowspan: 1, colspan: 1 },
            { content: plain('과학기술정보통신부'), rowspan: 1, colspan: 1 },
          ],
        ],
        from,
      },
    ];
    expect(asFurniture(blocks, 'header')).toEqual([
      { type: 'furniture', role: 'header', text: '국가연구개발사업 보고서', from },
      { type: 'furniture', role: 'header', text: '기관 과학기술정보통신부', from },
    ]);
  });
});
