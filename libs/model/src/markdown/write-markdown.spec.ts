import type { Block, Cell, Document, Inline } from '../document';
import { plain } from '../document';
import { writeMarkdown } from './write-markdown';

const from = { file: 'f.pdf', page: 1 };

describe('writeMarkdown', () => {
  it('writes quoted paragraphs that follow each other as one quotation', () => {
    const document: Document = {
      version: 1,
      blocks: [
        { type: 'paragraph', content: plain('Quoted'), quote: true, from },
        { type: 'paragraph', content: plain('Twice'), quote: true, from },
        { type: 'paragraph', content: plain('After'), from },
        { type: 'paragraph', content: plain('Apart'), quote: true, from },
      ],
    };
    expect(writeMarkdown(document)).toBe('> Quoted\n>\n> Twice\n\nAfter\n\n> Apart\n');
  });

  it('writes each kind of block, escaping text and leaving page furniture out', () => {
    const document: Document = {
      version: 1,
      blocks: [
        { type: 'furniture', role: 'header', text: 'Annual report', from },
        { type: 'heading', level: 2, content: plain('Item #'), from },
        {
          type: 'paragraph',
          content: [
            { kind: 'text', text: 'Sales rose ' },
            { kind: 'text', text: '12%', bold: true },
            { kind: 'text', text: ' (see [draft] *notes*).' },
          ],
          from,
        },
        { type: 'paragraph', content: plain('1. not a list'), from },
        { type: 'list_item', depth: 0, content: plain('first'), from },
        { type: 'list_item', depth: 1, number: 2, content: plain('second'), from },
        {
          type: 'table',
          headerRows: 1,
          rows: [
            [
              { content: [{ kind: 'text', text: 'Name', bold: true }], rowspan: 1, colspan: 1 },
              { content: plain('a|b'), rowspan: 1, colspan: 1 },
            ],
            [
              { content: plain('x'), rowspan: 1, colspan: 1 },
              { content: plain('y'), rowspan: 1, colspan: 1 },
            ],
          ],
          from,
        },
        { type: 'figure', src: 'images/p1-1.png', alt: 'A [chart]', from },
        { type: 'code', language: 'js', text: 'a ```b```', from },
        { type: 'formula', tex: 'E = mc^2', from },
        { type: 'furniture', role: 'footer', text: '1', from },
      ],
    };
    expect(writeMarkdown(document)).toBe(
      [
        '## Item \\#',
        '',
        'Sales rose **12%** (see [draft] \\*notes\\*).',
        '',
        '1\\. not a list',
        '',
        '- first',
        '    2. second',
        '',
        '| **Name** | a\\|b |',
        '| --- | --- |',
        '| x | y |',
        '',
        '![A \\[chart\\]](images/p1-1.png)',
        '',
        '````js',
        'a ```b```',
        '````',
        '',
        '$$E = mc^2$$',
        '',
      ].join('\n'),
    );
  });

  it('writes a table with spans as HTML, keeping a cell formatting', () => {
    const markdown = writeMarkdown({
      version: 1,
      blocks: [
        {
          type: 'table',
          headerRows: 1,
          rows: [
            [{ content: plain('Head'), rowspan: 1, colspan: 2 }],
            [
              { content: [{ kind: 'text', text: 'x', italic: true }], rowspan: 1, colspan: 1 },
              { content: plain('y'), rowspan: 1, colspan: 1 },
            ],
          ],
          from,
        },
      ],
    });
    expect(markdown).toBe(
      '<table>\n<tr><th colspan="2">Head</th></tr>\n<tr><td><em>x</em></td><td>y</td></tr>\n</table>\n',
    );
  });

  it('writes a table whose cell holds a table as HTML, the nested tables inside their cells after its text', () => {
    const cell = (text: string, blocks?: Block[]): Cell => ({ content: plain(text), rowspan: 1, colspan: 1, blocks });
    const table = (rows: Cell[][]): Block => ({ type: 'table', headerRows: 0, rows, from });
    const deepest = table([[cell('E1'), cell('E2')]]);
    const inner = table([[cell('I'), cell('V', [deepest])]]);
    const bold: Inline = { kind: 'text', text: 'x', bold: true };
    const outer = table([
      [cell('A'), cell('B')],
      [
        { content: [bold], rowspan: 1, colspan: 1, blocks: [inner] },
        cell('2', [{ type: 'paragraph', content: plain('not a table: not written'), from }]),
      ],
    ]);
    expect(writeMarkdown({ version: 1, blocks: [outer] })).toBe(
      [
        '<table>',
        '<tr><th>A</th><th>B</th></tr>',
        '<tr><td><strong>x</strong><table>',
        '<tr><th>I</th><th>V<table>',
        '<tr><th>E1</th><th>E2</th></tr>',
        '</table></th></tr>',
        '</table></td><td>2</td></tr>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it('escapes both angle brackets around an e-mail address, and only the opening one of a URL or a tag', () => {
    const markdown = writeMarkdown({
      version: 1,
      blocks: [
        {
          type: 'table',
          headerRows: 1,
          rows: [[{ content: plain('From: Alice <alice@example.com>'), rowspan: 1, colspan: 1 }]],
          from,
        },
        { type: 'paragraph', content: plain('See <https://example.com> or <b>here</b>.'), from },
      ],
    });
    expect(markdown).toBe(
      '| From: Alice \\<alice@example.com\\> |\n| --- |\n\nSee \\<https://example.com> or \\<b>here\\</b>.\n',
    );
  });

  it('keeps an ideographic-space indent, which Markdown shows, and drops spaces and tabs at a line’s edges', () => {
    const document: Document = {
      version: 1,
      blocks: [
        {
          type: 'paragraph',
          content: [
            { kind: 'text', text: '\u3000첫 문단' },
            { kind: 'break' },
            { kind: 'text', text: '\u3000둘째 줄\u3000' },
          ],
          from,
        },
        { type: 'paragraph', content: [{ kind: 'text', text: ' \t plain \t' }], from },
        { type: 'paragraph', content: [{ kind: 'text', text: '\u3000bold', bold: true }], from },
      ],
    };
    expect(writeMarkdown(document)).toBe('\u3000첫 문단  \n\u3000둘째 줄\u3000\n\nplain\n\n**bold**\n');
  });

  it('writes nothing for an empty document', () => {
    expect(writeMarkdown({ version: 1, blocks: [] })).toBe('');
  });

  it('writes a picture that was not stored as its alternative text, escaped as any text is', () => {
    const document: Document = {
      version: 1,
      blocks: [{ type: 'figure', alt: '# 발사체 *단면도* [1]', from }],
    };
    expect(writeMarkdown(document)).toBe('\\# 발사체 \\*단면도\\* [1]\n');
  });
});
