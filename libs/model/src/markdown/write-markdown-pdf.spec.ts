import type { Block, Cell } from '../document';
import { writeMarkdown, writeMarkdownSpans } from './write-markdown';

const from = { file: 'f.pdf' };
const cell = (text: string, colspan = 1): Cell => ({ content: [{ kind: 'text', text }], rowspan: 1, colspan });
const write = (...blocks: Block[]) => writeMarkdown({ version: 1, blocks });

describe('writeMarkdown', () => {
  it('writes a list item with the label the document prints, and a list that opens anew apart from the one before', () => {
    const item = (text: string, extra: Partial<Block> = {}): Block =>
      ({ type: 'list_item', depth: 0, content: [{ kind: 'text', text }], from, ...extra }) as Block;
    expect(write(item('one', { number: 1 }), item('two', { marker: '(b)' }), item('three'))).toBe(
      '1. one\n(b) two\n- three\n',
    );
    expect(write(item('one'), item('two', { opens: true }))).toBe('- one\n\n- two\n');
  });

  it('writes note references inside HTML tables as superscripts, and notes referenced only there as numbered paragraphs', () => {
    const note = (label: string): Block => ({
      type: 'footnote',
      label,
      content: [{ kind: 'text', text: 'Audited.' }],
      from,
    });
    const html: Block = {
      type: 'table',
      rows: [
        [cell('Year', 2)],
        [
          {
            ...cell('Total'),
            content: [
              { kind: 'text', text: 'Total' },
              { kind: 'note', label: '1' },
            ],
          },
          cell('3'),
        ],
      ],
      headerRows: 1,
      from,
    };
    expect(write(html, note('1'))).toBe(
      '<table>\n<tr><th colspan="2">Year</th></tr>\n<tr><td>Total<sup>1</sup></td><td>3</td></tr>\n</table>\n\n<sup>1</sup> Audited.\n',
    );
    // Two such notes stay two paragraphs (definitions alone go one per line).
    const second = {
      ...html,
      rows: [html.rows[0], [{ ...cell('x'), content: [{ kind: 'note', label: '2' }] }, cell('4')]],
    } as Block;
    expect(write(second, note('1'), note('2'))).toMatch(/\n\n<sup>1<\/sup> Audited\.\n\n<sup>2<\/sup> Audited\.\n$/);
    const paragraph: Block = {
      type: 'paragraph',
      content: [
        { kind: 'text', text: 'Total' },
        { kind: 'note', label: '1' },
        { kind: 'text', text: ' rose.' },
      ],
      from,
    };
    expect(write(paragraph, note('1'))).toBe('Total[^1] rose.\n\n[^1]: Audited.\n');
  });

  it('gives the span of each block it wrote, and none to the furniture it left out', () => {
    const text = (t: string) => [{ kind: 'text' as const, text: t }];
    const { markdown, blocks } = writeMarkdownSpans({
      version: 1,
      blocks: [
        { type: 'furniture', role: 'header', text: 'Annual report', from },
        { type: 'heading', level: 1, content: text('Sales #'), from },
        { type: 'list_item', depth: 0, content: text('one'), from },
        { type: 'list_item', depth: 1, content: text('two'), from },
        { type: 'code', text: 'x = 1', from },
      ],
    });
    expect(markdown).toBe('# Sales \\#\n\n- one\n    - two\n\n```\nx = 1\n```\n');
    expect(blocks.map(({ span }) => (span ? markdown.slice(...span) : null))).toEqual([
      null,
      '# Sales \\#',
      '- one',
      '    - two',
      '```\nx = 1\n```',
    ]);
  });
});
