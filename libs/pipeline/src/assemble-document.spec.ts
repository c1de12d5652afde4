import { MAX_READ_BACK_BYTES, plain, writeMarkdown, type Block, type Document } from '@docconv/model';
import { assembleDocument, headedPart, PART_SEPARATOR, type DocumentPart } from './assemble-document';

/** A reader's document of `file`: a heading, a paragraph and a two-item list. */
function readerDocument(file: string, title: string): Document {
  const from = { file, page: 1 };
  const blocks: Block[] = [
    { type: 'heading', level: 1, content: plain(title), from },
    { type: 'paragraph', content: [...plain('Sales rose by '), ...plain('7 %', { bold: true }), ...plain('.')], from },
    { type: 'list_item', depth: 0, content: plain('north'), from },
    { type: 'list_item', depth: 0, content: plain('south'), from },
  ];
  return { version: 1, blocks };
}

/** A file's part as the parse lays it out: under a `## file` heading when the job has several files. */
function part(file: string, markdown: string, several: boolean, read?: Document): DocumentPart {
  return several
    ? { file, markdown: headedPart(file, markdown), headed: true, read }
    : { file, markdown, headed: false, read };
}

const joined = (parts: DocumentPart[]) => parts.map((p) => p.markdown).join(PART_SEPARATOR);

describe('assembleDocument', () => {
  it('is a one-file job’s document as its reader built it', () => {
    const read = readerDocument('report.pdf', 'Annual report');
    const parts = [part('report.pdf', writeMarkdown(read), false, read)];
    const document = assembleDocument(parts)!;
    expect(writeMarkdown(document)).toBe(joined(parts));
    expect(document.blocks).toEqual(read.blocks);
  });

  it('joins several files’ documents under their headings, each block naming its file', () => {
    const a = readerDocument('a.docx', 'First');
    const b = readerDocument('b.docx', 'Second');
    const parts = [part('a.docx', writeMarkdown(a), true, a), part('b.docx', writeMarkdown(b), true, b)];
    const document = assembleDocument(parts)!;
    expect(writeMarkdown(document)).toBe(joined(parts));
    expect(document.blocks.map((block) => [block.type, block.from.file])).toEqual([
      ['heading', 'a.docx'],
      ...a.blocks.map((block) => [block.type, 'a.docx']),
      ['heading', 'b.docx'],
      ...b.blocks.map((block) => [block.type, 'b.docx']),
    ]);
    expect(document.blocks.every((block) => block.written === undefined)).toBe(true);
  });

  it('names a file whose name holds Markdown syntax in a heading that shows the name as it is', () => {
    const a = readerDocument('*draft* [v2].docx', 'First');
    const b = readerDocument('b.docx', 'Second');
    const parts = [part('*draft* [v2].docx', writeMarkdown(a), true, a), part('b.docx', writeMarkdown(b), true, b)];
    expect(parts[0].markdown.split('\n')[0]).toBe('## \\*draft\\* [v2].docx');
    const document = assembleDocument(parts)!;
    // The readers' documents, not the Markdown read back: the heading is the file's name as plain text.
    expect(document.blocks[0]).toEqual({
      type: 'heading',
      level: 2,
      content: plain('*draft* [v2].docx'),
      from: { file: '*draft* [v2].docx' },
    });
    expect(document.blocks.every((block) => block.written === undefined)).toBe(true);
  });

  it('reads back the Markdown of a file with no document (a reader not yet ported, refined pages) between two that have one', () => {
    const a = readerDocument('a.docx', 'First');
    const c = readerDocument('c.docx', 'Third');
    const parts = [
      part('a.docx', writeMarkdown(a), true, a),
      part('b.pdf', '| x | y |\n|---|---|\n| 1 | 2 |\n\n<!-- Kept as extracted. -->\n', true),
      part('c.docx', writeMarkdown(c), true, c),
    ];
    const document = assembleDocument(parts)!;
    expect(writeMarkdown(document)).toBe(joined(parts));
    const of = (file: string) => document.blocks.filter((block) => block.from.file === file);
    expect(of('c.docx').map((block) => block.written)).toEqual(Array(c.blocks.length + 1).fill(undefined));
    expect(of('b.pdf').map((block) => block.type)).toEqual(['heading', 'table', 'raw']);
  });

  it('reads back every part when the files’ documents meet as the writer would not join them', () => {
    // Two lists one after the other: the writer joins list items with one line break, the parse with a blank line.
    const list = (file: string): Document => ({
      version: 1,
      blocks: [{ type: 'list_item', depth: 0, content: plain(file), from: { file } }],
    });
    const parts = [part('a.md', '- a.md\n', false, list('a.md')), part('b.md', '- b.md\n', false, list('b.md'))];
    const document = assembleDocument(parts)!;
    expect(writeMarkdown(document)).toBe('- a.md\n\n- b.md\n');
    expect(document.blocks.map((block) => [block.from.file, block.written !== undefined])).toEqual([
      ['a.md', true],
      ['b.md', true],
    ]);
  });

  it('keeps what a file’s Markdown ends with, and a file with no Markdown at all', () => {
    const parts = [part('a.txt', 'One.\n\n\n', false), part('b.txt', '', false), part('c.txt', 'Two.', false)];
    expect(writeMarkdown(assembleDocument(parts)!)).toBe(joined(parts));
  });

  it('gives no document when a part with none of its own is past what is read back, and reads one just under it', () => {
    const line = '| a | b |\n';
    const table = (bytes: number) => `| x | y |\n| --- | --- |\n${line.repeat(Math.ceil(bytes / line.length))}`;
    const huge = table(MAX_READ_BACK_BYTES + 1);
    expect(assembleDocument([{ file: 'huge.md', markdown: huge, headed: false }])).toBeUndefined();
    const small = table(4_000);
    expect(writeMarkdown(assembleDocument([{ file: 'small.md', markdown: small, headed: false }])!)).toBe(small);
  });
});
