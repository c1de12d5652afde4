import { DomainError } from '@docconv/contracts';
import iconv from 'iconv-lite';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Nodes } from 'mdast';
import { parseMarkdown } from '@docconv/model/testing';
import { writeMarkdown } from '@docconv/model';
import { countTextPages, extractText as readText, textBlocks } from './extract-text';

/** Plain text's Markdown, as the one writer makes it from the text's paragraphs. */
const textMarkdown = (text: string): string => writeMarkdown({ version: 1, blocks: textBlocks(text, 'a.txt') });

/** A text file's Markdown, as the one writer makes it from the file's document. */
const extractText = async (path: string, displayName: string): Promise<string> =>
  writeMarkdown(await readText(path, displayName));

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-text-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, bytes);
  return path;
}

/**
 * The blocks a renderer shows, as `type: text`, a hard break read as a line break, with the
 * inline syntax read inside each block (none but breaks is wanted) in brackets. A bare address
 * GFM links shows as written and counts as text.
 */
function rendered(markdown: string): string[] {
  return parseMarkdown(markdown).children.map((block) => {
    const syntax: string[] = [];
    const text = (node: Nodes): string => {
      if (node.type === 'text') return node.value;
      if (node.type === 'break') return '\n';
      const inner = 'children' in node ? node.children.map(text).join('') : '';
      const autolink = node.type === 'link' && [inner, `http://${inner}`, `mailto:${inner}`].includes(node.url);
      if (node !== block && !autolink) syntax.push(node.type);
      return inner;
    };
    const shown = text(block);
    return `${block.type}: ${shown}${syntax.length ? ` [${syntax.join(', ')}]` : ''}`;
  });
}

/** Lines that Markdown would read as syntax if they were written as they are. */
const MARKDOWN_LOOKING = [
  '# Not a heading',
  '## Nor this',
  '- not a bullet',
  '* nor this',
  '+ nor this',
  '1. not a numbered item',
  '2020. The year',
  '> not a quote',
  '| a | b |',
  '|---|---|',
  'a | b',
  '--- | ---',
  '[^1]: not a footnote',
  '<https://example.com>',
  '- [ ] not a task',
  '```js',
  '~~~',
  '<html><body>not HTML</body></html>',
  '<!-- not a comment -->',
  '***',
  '---',
  '===',
  '[label]: https://example.com',
  '**not bold** and *not italic* and `not code`',
  '&amp; stays &amp;',
  'ends with a backslash \\',
];

describe('textMarkdown', () => {
  it('keeps every line literal: no headings, lists, quotes, tables, code or HTML', () => {
    const text = MARKDOWN_LOOKING.join('\n');
    expect(rendered(textMarkdown(text))).toEqual([`paragraph: ${text}`]);
  });

  it.each(MARKDOWN_LOOKING)(
    'keeps %j a paragraph of its own text, alone, after a line and after a blank line',
    (line) => {
      expect(rendered(textMarkdown(line))).toEqual([`paragraph: ${line}`]);
      expect(rendered(textMarkdown(`Intro line\n${line}`))).toEqual([`paragraph: Intro line\n${line}`]);
      expect(rendered(textMarkdown(`Intro line\n\n${line}\nnext`))).toEqual([
        'paragraph: Intro line',
        `paragraph: ${line}\nnext`,
      ]);
    },
  );

  it('separates paragraphs at blank lines and keeps line breaks inside one as hard breaks', () => {
    const markdown = textMarkdown('\n\nDear Ann,\n\nThe address is\n12 High Street\nLondon\n\n\n\nBest,\nBo\n');
    expect(markdown).toBe('Dear Ann,\n\nThe address is  \n12 High Street  \nLondon\n\nBest,  \nBo\n');
    expect(rendered(markdown)).toEqual([
      'paragraph: Dear Ann,',
      'paragraph: The address is\n12 High Street\nLondon',
      'paragraph: Best,\nBo',
    ]);
  });

  it('trims indentation, so indented lines do not become code blocks', () => {
    const markdown = textMarkdown('Steps:\n    - first\n\n        four-space code?\n\t# tabbed');
    expect(markdown).toBe('Steps:  \n\\- first\n\nfour-space code?  \n\\# tabbed\n');
    expect(rendered(markdown)).toEqual(['paragraph: Steps:\n- first', 'paragraph: four-space code?\n# tabbed']);
  });

  it('leaves ordinary text as it is', () => {
    expect(textMarkdown('Hello, world. 5 * 3 = 15, snake_case and AT&T.')).toBe(
      'Hello, world. 5 * 3 = 15, snake_case and AT&T.\n',
    );
    expect(textMarkdown('안녕하세요.\n반갑습니다.')).toBe('안녕하세요.  \n반갑습니다.\n');
  });

  it('keeps an ideographic-space indent, and writes a run of blanks inside a line as one space', () => {
    expect(textMarkdown('\u3000첫 문단입니다.\n\u3000둘째 줄.')).toBe('\u3000첫 문단입니다.  \n\u3000둘째 줄.\n');
    expect(textMarkdown('Name    Age\nAnn\t\t30')).toBe('Name Age  \nAnn 30\n');
  });
});

describe('extractText', () => {
  it('reads a CP949 file', async () => {
    const path = await file('korean.txt', iconv.encode('제1장 총칙\r\n\r\n# 제목처럼 보이는 줄\r\n', 'cp949'));
    expect(await extractText(path, 'korean.txt')).toBe('제1장 총칙\n\n\\# 제목처럼 보이는 줄\n');
  });

  it('reads a UTF-16 file with a byte order mark', async () => {
    const path = await file(
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('café\n', 'utf-16le')]),
    );
    expect(await extractText(path, 'utf16.txt')).toBe('café\n');
  });

  it('refuses a file that is not text', async () => {
    const path = await file('binary.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const error = await extractText(path, 'binary.txt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'unsupported_format',
      message: expect.stringMatching(/^binary\.txt is not readable text/),
    });
    await expect(countTextPages(path, 'binary.txt')).rejects.toMatchObject({ code: 'unsupported_format' });
  });
});

describe('countTextPages', () => {
  it('counts a page per 10,000 readable characters, at least one', async () => {
    expect(await countTextPages(await file('empty.txt', ''), 'empty.txt')).toBe(1);
    expect(await countTextPages(await file('short.txt', 'short   text\n\n'), 'short.txt')).toBe(1);
    expect(await countTextPages(await file('article.txt', 'x'.repeat(9_000)), 'article.txt')).toBe(1);
    expect(await countTextPages(await file('long.txt', 'x'.repeat(10_001)), 'long.txt')).toBe(2);
    expect(await countTextPages(await file('spaces.txt', `${'y'.repeat(9_999)}\n\n\n \n`), 'spaces.txt')).toBe(1);
  });
});

describe('textBlocks', () => {
  it('makes a paragraph of plain, unescaped runs per stretch of lines, a break between lines, each from its file', () => {
    expect(textBlocks('# Not a heading\n  *x* <b>\n\n\n2020. The year\n', 'notes.txt')).toEqual([
      {
        type: 'paragraph',
        content: [{ kind: 'text', text: '# Not a heading' }, { kind: 'break' }, { kind: 'text', text: '*x* <b>' }],
        from: { file: 'notes.txt' },
      },
      { type: 'paragraph', content: [{ kind: 'text', text: '2020. The year' }], from: { file: 'notes.txt' } },
    ]);
    expect(textBlocks(' \n\t\n', 'blank.txt')).toEqual([]);
  });
});
