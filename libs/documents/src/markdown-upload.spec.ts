import { writeMarkdown } from '@docconv/model';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractToMarkdown } from './extract';
import type { OcrOptions } from './ocr/page-reader';

/** Never used: a Markdown upload has no page to read by OCR. */
const NO_OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'basic',
  dpi: 300,
  languages: ['eng'],
  settings: {},
  pageDeadlineSeconds: 60,
};

/** Markdown with what a writer of its own would not make: odd spacing, raw HTML, a loose table, no final newline. */
const UPLOAD = [
  '#  Title  #',
  '',
  '',
  'Some *text*   with  spaces\\',
  'and a <span>tag</span>.',
  '',
  '<div align="center">',
  '  raw HTML',
  '</div>',
  '',
  'a|b',
  '-|-',
  '1|2',
  '',
  '* one',
  '    * nested',
  '',
  '```',
  'code',
  '```',
  'tail  ',
].join('\n');

describe('a Markdown upload', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-md-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is read into a document whose Markdown is the upload byte for byte, its blocks from the file', async () => {
    const path = join(folder, 'notes.md');
    await writeFile(path, UPLOAD);
    const extraction = await extractToMarkdown(
      { path, kind: 'markdown', mime: 'text/markdown', displayName: 'notes.md', units: 1, ocr: NO_OCR },
      () => {},
    );
    expect(extraction.markdown).toBe(UPLOAD);
    expect(extraction.document).toBeDefined();
    const document = extraction.document!;
    expect(writeMarkdown(document)).toBe(UPLOAD);
    expect(document.blocks.map((block) => block.type)).toEqual(
      expect.arrayContaining(['heading', 'paragraph', 'raw', 'table', 'list_item', 'code']),
    );
    expect(document.blocks.every((block) => block.from.file === 'notes.md')).toBe(true);
  });
});
