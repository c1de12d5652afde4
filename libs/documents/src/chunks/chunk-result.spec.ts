import { structuredResult, type StructuredResult } from '../blocks/structured-result';
import { chunkResult, type ChunkOptions } from './chunk-result';
import { chunkProblems } from './testing/chunk-checks';
import { countTokens } from './tokens';

const STRUCTURE: ChunkOptions = { strategy: 'structure', maxTokens: 512, overlapTokens: 0 };

function resultOf(markdown: string): StructuredResult {
  return structuredResult(markdown, [
    { file: 'a.md', kind: 'markdown', start: 0, end: markdown.length, headed: false },
  ]);
}

/** Chunks of `markdown`, after checking every promise of the endpoint holds for them. */
function chunksOf(markdown: string, options: ChunkOptions, result = resultOf(markdown)) {
  const chunks = chunkResult(markdown, result, options);
  expect(chunkProblems(markdown, result, chunks, options)).toEqual([]);
  return chunks;
}

const sentence = (i: number) => `Sentence number ${i} says something about the subject at hand.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

describe('chunkResult', () => {
  it('opens a chunk at each heading and gives the path of headings above it', () => {
    const markdown = [
      '# Guide',
      '## Install',
      paragraph(0, 2),
      '### On Linux',
      paragraph(2, 2),
      '## Use',
      paragraph(4, 2),
    ].join('\n\n');
    const chunks = chunksOf(markdown, STRUCTURE);
    expect(chunks.map((chunk) => chunk.heading_path)).toEqual([
      ['Guide', 'Install'],
      ['Guide', 'Install', 'On Linux'],
      ['Guide', 'Use'],
    ]);
    // A heading followed at once by another stays with it.
    expect(chunks[0].text.startsWith('# Guide\n\n## Install\n\nSentence number 0')).toBe(true);
    expect(chunks[2].text).toBe(`## Use\n\n${paragraph(4, 2)}`);
    expect(chunks[2].markdown).toEqual([markdown.indexOf('## Use'), markdown.length]);
  });

  it('packs the blocks of a long section up to the limit, never over it, and cuts a long paragraph between sentences', () => {
    const markdown = [
      '## Long',
      ...Array.from({ length: 12 }, (_, i) => paragraph(i * 10, 10)),
      paragraph(200, 80),
    ].join('\n\n');
    const chunks = chunksOf(markdown, { ...STRUCTURE, maxTokens: 300 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((chunk) => chunk.tokens))).toBeLessThanOrEqual(300);
    // Whole paragraphs, each chunk filled: the next paragraph would not have fitted.
    const para = countTokens(paragraph(0, 10));
    for (const chunk of chunks.slice(0, 3)) expect(chunk.tokens + para).toBeGreaterThan(300);
    const cut = chunks.filter((chunk) => chunk.blocks.some((block) => block.partial));
    expect(cut.length).toBeGreaterThan(1);
    for (const chunk of cut) expect(chunk.text).toMatch(/^(## Long\n\n)?Sentence number \d+ [^]*at hand\.$/);
    expect(cut.every((chunk) => chunk.heading_path.join() === 'Long')).toBe(true);
  });

  it('cuts a long table between rows and repeats its header in each chunk', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| item ${i} | ${i * 3} | note on item ${i} |`);
    const markdown = ['## Prices', '| Item | Price | Note |', '| --- | --- | --- |', ...rows]
      .join('\n')
      .replace('## Prices\n', '## Prices\n\n');
    const chunks = chunksOf(markdown, { ...STRUCTURE, maxTokens: 120 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text.startsWith('| Item | Price | Note |\n| --- | --- | --- |\n| item ')).toBe(true);
      expect(chunk.heading_path).toEqual(['Prices']);
    }
    const body = chunks.flatMap((chunk) => chunk.text.split('\n').filter((line) => line.startsWith('| item ')));
    expect(body).toEqual(rows);
  });

  it('keeps the rows a cell spans together, and closes an HTML table cut after them', () => {
    const rows = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? `<tr><td rowspan="3">group ${i / 3}</td><td>row ${i}</td></tr>` : `<tr><td>row ${i}</td></tr>`,
    );
    const markdown = ['<table>', '<tr><th>Group</th><th>Row</th></tr>', ...rows, '</table>'].join('\n');
    const chunks = chunksOf(markdown, { ...STRUCTURE, maxTokens: 90 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.text.startsWith('<table>\n<tr><th>Group</th><th>Row</th></tr>\n')).toBe(true);
      expect(chunk.text.endsWith('\n</table>')).toBe(true);
      // Each chunk starts a group: its first body row is the one with the spanning cell.
      expect(chunk.text.split('\n')[2]).toMatch(/rowspan="3"/);
      expect(chunk.blocks).toEqual([expect.objectContaining({ id: 0, partial: true })]);
      expect(chunk.markdown[0]).toBe(i === 0 ? 0 : markdown.indexOf(chunk.text.split('\n')[2]));
    }
  });

  it('repeats the end of the chunk before within the overlap, but never across a heading', () => {
    const markdown = ['## One', paragraph(0, 40), '## Two', paragraph(40, 3)].join('\n\n');
    const chunks = chunksOf(markdown, { ...STRUCTURE, maxTokens: 200, overlapTokens: 40 });
    const one = chunks.filter((chunk) => chunk.heading_path[0] === 'One');
    expect(one.length).toBeGreaterThan(2);
    for (const [i, chunk] of one.entries()) {
      if (i === 0) continue;
      expect(chunk.overlap).toBeDefined();
      // The overlap is the last sentences of the chunk before.
      const repeated = chunk.text.slice(0, chunk.overlap!.markdown[1] - chunk.overlap!.markdown[0]);
      expect(one[i - 1].text.endsWith(repeated.trimEnd())).toBe(true);
      expect(countTokens(repeated)).toBeLessThanOrEqual(41);
    }
    const two = chunks.find((chunk) => chunk.heading_path[0] === 'Two')!;
    expect(two.overlap).toBeUndefined();
    expect(two.text.startsWith('## Two')).toBe(true);
  });

  it('cuts text without spaces inside the limit, never inside a character, and counts special tokens as text', () => {
    const korean = '한국어문장입니다'.repeat(200);
    const emoji = '🙂'.repeat(600);
    const markdown = ['# Korean', korean, '# Emoji', emoji, '# Special', 'plain <|endoftext|> text'].join('\n\n');
    const chunks = chunksOf(markdown, { ...STRUCTURE, maxTokens: 64 });
    const under = (heading: string) =>
      chunks
        .filter((chunk) => chunk.heading_path[0] === heading)
        .map((chunk) => chunk.text.replace(new RegExp(`^# ${heading}(\n\n)?`), ''))
        .join('');
    expect(under('Korean')).toBe(korean);
    expect(under('Emoji')).toBe(emoji);
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    expect(chunks[chunks.length - 1].tokens).toBe(countTokens('# Special\n\nplain <|endoftext|> text'));
  });

  it('page: one chunk per page (cut when a page is over the limit), with the pages and boxes of its blocks', () => {
    const markdown = [paragraph(0, 2), paragraph(2, 2), paragraph(4, 30), paragraph(34, 2)].join('\n\n');
    const result = resultOf(markdown);
    const pages = [1, 1, 2, 3];
    result.blocks.forEach((block, i) => {
      block.page = pages[i];
      block.box = [10, 10 + i, 100, 50 + i];
      delete block.position;
    });
    result.blocks.push({
      id: 4,
      type: 'page_footer',
      text: '3',
      markdown: null,
      file: 'a.md',
      page: 3,
      box: [1, 2, 3, 4],
    });
    const options: ChunkOptions = { strategy: 'page', maxTokens: 200, overlapTokens: 0 };
    const chunks = chunksOf(markdown, options, result);
    expect(chunks.map((chunk) => chunk.pages![0])).toEqual([1, ...chunks.slice(1, -1).map(() => 2), 3]);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((chunk) => chunk.pages!.length === 1)).toBe(true);
    expect(chunks[0].blocks).toEqual([
      { id: 0, page: 1, box: [10, 10, 100, 50] },
      { id: 1, page: 1, box: [10, 11, 100, 51] },
    ]);
    expect(chunks[1].blocks).toEqual([{ id: 2, page: 2, box: [10, 12, 100, 52], partial: true }]);
    // Structure would have packed pages 1 and 3 beside page 2's paragraph.
    expect(chunksOf(markdown, { ...options, strategy: 'structure' }, result).length).toBeLessThan(chunks.length);
  });

  it('never joins two files, and starts each file with its own headings', () => {
    const first = `## a.docx\n\n# Intro\n\n${paragraph(0, 2)}`;
    const second = `## b.pdf\n\n${paragraph(2, 2)}`;
    const markdown = `${first}\n\n${second}\n`;
    const result = structuredResult(markdown, [
      { file: 'a.docx', kind: 'docx', start: 0, end: first.length + 2, headed: true },
      { file: 'b.pdf', kind: 'docx', start: first.length + 2, end: markdown.length, headed: true },
    ]);
    const chunks = chunksOf(markdown, { ...STRUCTURE, strategy: 'page' }, result);
    expect(chunks.map((chunk) => [chunk.file, chunk.heading_path])).toEqual([
      ['a.docx', ['Intro']],
      ['b.pdf', ['b.pdf']],
    ]);
  });
});
