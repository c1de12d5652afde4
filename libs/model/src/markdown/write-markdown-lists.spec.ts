import type { List } from 'mdast';
import type { Block, ListItemBlock } from '../document';
import { parseMarkdown } from './testing/read-back';
import { writeMarkdown } from './write-markdown';

const from = { file: 'a.docx' };

function item(text: string, depth: number, extra: Partial<ListItemBlock> = {}): ListItemBlock {
  return { type: 'list_item', from, depth, content: [{ kind: 'text', text }], ...extra };
}

function write(...blocks: Block[]): string {
  return writeMarkdown({ version: 1, blocks });
}

/** The top-level lists a Markdown reader sees: each as its items' first text, nested lists in brackets. */
function lists(markdown: string): string[] {
  const show = (list: List): string =>
    list.children
      .map((li) =>
        li.children
          .map((child) =>
            child.type === 'list' ? `[${show(child)}]` : child.type === 'paragraph' ? textOf(child) : child.type,
          )
          .join(' '),
      )
      .join(', ');
  return parseMarkdown(markdown)
    .children.filter((node): node is List => node.type === 'list')
    .map(show);
}

function textOf(node: { type?: string; children?: unknown[]; value?: string }): string {
  if (node.type === 'break') return '\n';
  if (typeof node.value === 'string') return node.value;
  return (node.children ?? []).map((c) => textOf(c as { children?: unknown[]; value?: string })).join('');
}

describe('writeMarkdown: list items', () => {
  it('indents a nested item to its parent’s content, at least four columns, so it nests under 10. as under -', () => {
    const markdown = write(
      item('ten', 0, { number: 10 }),
      item('child', 1),
      item('grandchild', 2, { number: 1 }),
      item('eleven', 0, { number: 11 }),
    );
    expect(markdown).toBe('10. ten\n    - child\n        1. grandchild\n11. eleven\n');
    expect(lists(markdown)).toEqual(['ten [child [grandchild]], eleven']);
  });

  it('writes the delimiter the document shows', () => {
    expect(write(item('a', 0, { number: 1, delimiter: ')' }), item('b', 0, { number: 2, delimiter: ')' }))).toBe(
      '1) a\n2) b\n',
    );
  });

  it('keeps two adjacent lists of the same kind apart by switching the marker, and continues a list that says nothing', () => {
    const markdown = write(
      item('a', 0, { list: 'x' }),
      item('b', 0, { list: 'y' }),
      item('c', 0, { list: 'y' }),
      item('d', 0, { number: 1, list: 'z' }),
      item('e', 0, { number: 1, list: 'w' }),
      item('f', 0, { number: 2 }),
    );
    expect(markdown).toBe('- a\n* b\n* c\n1. d\n1) e\n2) f\n');
    expect(lists(markdown)).toEqual(['a', 'b, c', 'd', 'e, f']);
  });

  it('keeps two adjacent lists nested under one item apart, and lists under different items unswitched', () => {
    const markdown = write(
      item('a', 0, { list: 'x' }),
      item('a1', 1, { list: 'y' }),
      item('a2', 1, { list: 'z' }),
      item('a3', 1, { list: 'z' }),
      item('b', 0, { list: 'x' }),
      item('b1', 1, { list: 'w' }),
    );
    expect(markdown).toBe('- a\n    - a1\n    * a2\n    * a3\n- b\n    - b1\n');
    expect(lists(markdown)).toEqual(['a [a1] [a2, a3], b [b1]']);
  });

  it('starts afresh after a block that is not a list item', () => {
    const paragraph: Block = { type: 'paragraph', from, content: [{ kind: 'text', text: 'p' }] };
    expect(write(item('a', 0, { list: 'x' }), paragraph, item('b', 0, { list: 'y' }), item('c', 1))).toBe(
      '- a\n\np\n\n- b\n    - c\n',
    );
  });

  it('indents an item’s further lines to its content and keeps each from starting a block', () => {
    const block: ListItemBlock = {
      ...item('', 0, { number: 3 }),
      content: [{ kind: 'text', text: 'first' }, { kind: 'break' }, { kind: 'text', text: '# not a heading' }],
    };
    const markdown = write(block);
    expect(markdown).toBe('3. first  \n   \\# not a heading\n');
    expect(lists(markdown)).toEqual(['first\n# not a heading']);
  });
});

describe('writeMarkdown: formulas and footnotes', () => {
  it('writes a formula as display math on one line', () => {
    expect(write({ type: 'formula', from, tex: 'x^2' })).toBe('$$x^2$$\n');
  });

  it('writes footnotes one per line after the body', () => {
    const markdown = write(
      {
        type: 'paragraph',
        from,
        content: [
          { kind: 'text', text: 'a' },
          { kind: 'note', label: '1' },
          { kind: 'text', text: ' b' },
          { kind: 'note', label: '2' },
        ],
      },
      { type: 'footnote', from, label: '1', content: [{ kind: 'text', text: 'one' }] },
      { type: 'footnote', from, label: '2', content: [{ kind: 'text', text: 'two' }] },
    );
    expect(markdown).toBe('a[^1] b[^2]\n\n[^1]: one\n[^2]: two\n');
    expect(parseMarkdown(markdown).children.map((node) => node.type)).toEqual([
      'paragraph',
      'footnoteDefinition',
      'footnoteDefinition',
    ]);
  });
});
