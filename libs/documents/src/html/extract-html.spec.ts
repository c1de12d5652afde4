import iconv from 'iconv-lite';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMarkdown } from '@docconv/model';
import { countHtmlPages, decodeHtml, extractHtml } from './extract-html';

let folder: string;
let count = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-html-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function write(bytes: Buffer | string, extension = '.html'): Promise<string> {
  const path = join(folder, `${++count}${extension}`);
  await writeFile(path, bytes);
  return path;
}

describe('decodeHtml', () => {
  it('decodes a windows-1251 page by its <meta charset>', () => {
    const bytes = iconv.encode(
      '<html><head><meta charset="windows-1251"></head><body><p>Привет, мир</p></body></html>',
      'windows-1251',
    );
    expect(decodeHtml(bytes)).toContain('<p>Привет, мир</p>');
  });

  it('decodes an EUC-KR page by its http-equiv declaration', () => {
    const bytes = iconv.encode(
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"></head><body>한국어 문서</body></html>',
      'cp949',
    );
    expect(decodeHtml(bytes)).toContain('한국어 문서');
  });

  it('finds a <meta charset> past the first 1024 bytes', () => {
    const head = `<html><head><!-- ${'x'.repeat(2000)} --><meta charset="koi8-r"></head>`;
    const bytes = Buffer.concat([Buffer.from(head), iconv.encode('<body>Съешь же ещё</body></html>', 'koi8-r')]);
    expect(decodeHtml(bytes)).toContain('Съешь же ещё');
  });

  it('prefers the byte-order mark to the declaration', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<meta charset="windows-1252"><p>Ünïcödé ✓</p>', 'utf16le'),
    ]);
    expect(decodeHtml(bytes)).toBe('<meta charset="windows-1252"><p>Ünïcödé ✓</p>');
  });

  it('reads undeclared bytes as UTF-8 when they are valid UTF-8, else as windows-1252', () => {
    expect(decodeHtml(Buffer.from('<p>naïve — “quoted”</p>'))).toBe('<p>naïve — “quoted”</p>');
    expect(decodeHtml(Buffer.from([0x3c, 0x70, 0x3e, 0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94]))).toBe(
      '<p>café “q”',
    );
  });
});

describe('extractHtml and countHtmlPages', () => {
  it('converts an HTML file in its declared encoding', async () => {
    const path = await write(
      iconv.encode(
        '<html><head><meta charset="windows-1251"><title>T</title></head><body><h1>Заголовок</h1><p>Текст</p></body></html>',
        'windows-1251',
      ),
    );
    const document = await extractHtml(path, 'page.html');
    expect(writeMarkdown(document)).toBe('# Заголовок\n\nТекст\n');
    expect(document.blocks.map((block) => block.from)).toEqual([{ file: 'page.html' }, { file: 'page.html' }]);
  });

  it('reads an .xhtml file as XHTML', async () => {
    const path = await write(
      '<html xmlns="http://www.w3.org/1999/xhtml"><head><title/></head><body><p>Body</p></body></html>',
      '.xhtml',
    );
    expect(writeMarkdown(await extractHtml(path, 'page.xhtml'))).toBe('Body\n');
  });

  it('counts pages from the readable characters, at least one', async () => {
    const words = 'word '.repeat(4400); // 21,999 readable characters
    const path = await write(
      `<html><head><style>${'x'.repeat(10_000)}</style></head><body><p>${words}</p></body></html>`,
    );
    expect(await countHtmlPages(path, 'long.html')).toBe(3);
    expect(await countHtmlPages(await write('<html><body></body></html>'), 'empty.html')).toBe(1);
  });
});
