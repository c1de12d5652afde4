import { DomainError } from '@docconv/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip, type ZipEntrySpec } from '../../../../test/support/archives';
import { writeMarkdown } from '@docconv/model';
import { countEpubPages, extractEpub } from './extract-epub';

let folder: string;
let count = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-epub-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function write(bytes: Buffer): Promise<string> {
  const path = join(folder, `${++count}.epub`);
  await writeFile(path, bytes);
  return path;
}

const CONTAINER =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
  '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

interface Chapter {
  id: string;
  href: string;
  body: string;
  nav?: boolean;
}

/** An XHTML chapter as EPUB 3 writes them. */
function xhtml(body: string, title = 'Chapter'): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">' +
    `<head><title>${title}</title><link rel="stylesheet" href="style.css"/></head><body>${body}</body></html>`
  );
}

/** A package document listing the chapters in the manifest in `manifestOrder` and in the spine in `spine` order. */
function opf(chapters: Chapter[], spine: string[], metadata: string): string {
  const items = chapters
    .map(
      (c) =>
        `<item id="${c.id}" href="${c.href}" media-type="application/xhtml+xml"${c.nav ? ' properties="nav"' : ''}/>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">' +
    `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${metadata}</metadata>` +
    `<manifest>${items}<item id="css" href="style.css" media-type="text/css"/></manifest>` +
    `<spine>${spine.map((id) => `<itemref idref="${id}"/>`).join('')}</spine></package>`
  );
}

const METADATA =
  '<dc:identifier id="id">urn:test</dc:identifier><dc:title>The Test Book</dc:title>' +
  '<dc:creator>Ada Writer</dc:creator><dc:description>A &lt;b&gt;short&lt;/b&gt; book.</dc:description>';

const CHAPTERS: Chapter[] = [
  { id: 'c2', href: 'text/two.xhtml', body: '<h1>Chapter Two</h1><p>Second <em>chapter</em>.</p>' },
  {
    id: 'nav',
    href: 'nav.xhtml',
    body: '<nav epub:type="toc"><ol><li><a href="text/one.xhtml">One</a></li></ol></nav>',
    nav: true,
  },
  {
    id: 'c1',
    href: 'text/one.xhtml',
    body:
      '<h1>Chapter One</h1><p>First<a id="page1"/> paragraph, see <a href="two.xhtml">two</a>.</p>' +
      '<figure><img src="../img/map.png" alt="A map of the island"/></figure>' +
      '<table><tr><th>Name</th><th>Role</th></tr><tr><td>Ada</td><td>Writer</td></tr></table>',
  },
];

function book(
  entries: ZipEntrySpec[] = [],
  chapters = CHAPTERS,
  spine = ['nav', 'c1', 'c2'],
  metadata = METADATA,
): Buffer {
  return makeZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OEBPS/content.opf', data: opf(chapters, spine, metadata) },
    ...chapters.map((c) => ({ name: `OEBPS/${c.href}`, data: xhtml(c.body) })),
    { name: 'OEBPS/style.css', data: 'p { margin: 0 }' },
    ...entries,
  ]);
}

async function refusal(bytes: Buffer, name = 'book.epub'): Promise<DomainError> {
  const error: unknown = await extractEpub(await write(bytes), name).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** The Markdown written from a book's document. */
async function epubMarkdown(path: string, name: string): Promise<string> {
  return writeMarkdown(await extractEpub(path, name));
}

describe('extractEpub', () => {
  it('writes the chapters in spine order, the navigation document left out, with the title first', async () => {
    expect(await epubMarkdown(await write(book()), 'book.epub')).toBe(
      [
        '# The Test Book',
        '**Authors:** Ada Writer',
        'A **short** book.',
        '# Chapter One',
        'First paragraph, see two.',
        'A map of the island',
        '| Name | Role |\n| --- | --- |\n| Ada | Writer |',
        '# Chapter Two',
        'Second *chapter*.\n',
      ].join('\n\n'),
    );
  });

  it('adds no title when the book opens with it (a title page)', async () => {
    const titlePage: Chapter = {
      id: 'tp',
      href: 'text/title.xhtml',
      body: '<section><h1>The Test Book</h1><p>By <b>Ada Writer</b>.</p></section>',
    };
    const markdown = await epubMarkdown(await write(book([], [titlePage, ...CHAPTERS], ['tp', 'c1'])), 'book.epub');
    expect(markdown.startsWith('# The Test Book\n\nBy **Ada Writer**.\n\n# Chapter One\n')).toBe(true);
    expect(markdown).not.toContain('Authors');
  });

  it('keeps a list that ends one chapter apart from a list that starts the next', async () => {
    const chapters: Chapter[] = [
      { id: 'a', href: 'text/a.xhtml', body: '<h1>The Test Book</h1><ul><li>end of one</li></ul>' },
      { id: 'b', href: 'text/b.xhtml', body: '<ul><li>start of two</li></ul>' },
    ];
    expect(await epubMarkdown(await write(book([], chapters, ['a', 'b'])), 'book.epub')).toBe(
      '# The Test Book\n\n- end of one\n* start of two\n',
    );
  });

  it('counts pages from the readable characters of the chapters', async () => {
    const long: Chapter = { id: 'c1', href: 'text/one.xhtml', body: `<p>${'word '.repeat(3000)}</p>` };
    expect(await countEpubPages(await write(book([], [long], ['c1'])), 'book.epub')).toBe(2);
  });

  it('reads a book whose fonts only are obfuscated', async () => {
    const encryption =
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
      '<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>' +
      '<enc:CipherData><enc:CipherReference URI="OEBPS/fonts/serif.otf"/></enc:CipherData></enc:EncryptedData></encryption>';
    const markdown = await epubMarkdown(
      await write(book([{ name: 'META-INF/encryption.xml', data: encryption }])),
      'book.epub',
    );
    expect(markdown).toContain('# Chapter One');
  });

  describe('refuses', () => {
    it('a book whose chapters are encrypted (DRM)', async () => {
      const encryption =
        '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
        '<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>' +
        '<enc:CipherData><enc:CipherReference URI="OEBPS/text/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>';
      const error = await refusal(book([{ name: 'META-INF/encryption.xml', data: encryption }]), 'locked.epub');
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toMatch(/^locked\.epub is protected by DRM/);
      expect(error.message).toContain('DRM-free copy');
    });

    it('a book with Adobe DRM rights', async () => {
      const error = await refusal(book([{ name: 'META-INF/rights.xml', data: '<rights/>' }]), 'adobe.epub');
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toMatch(/^adobe\.epub is protected by DRM/);
    });

    it('a chapter that expands like a ZIP bomb (413, naming the file and the part)', async () => {
      const bomb: Chapter = { id: 'c1', href: 'text/one.xhtml', body: '<p>a</p>'.repeat(400_000) };
      const error = await refusal(book([], [bomb], ['c1']), 'bomb.epub');
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toMatch(/^bomb\.epub: its part OEBPS\/text\/one\.xhtml expands more than 200:1/);
    });

    it('a damaged ZIP package', async () => {
      const error = await refusal(randomBytes(4096), 'noise.epub');
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toMatch(/^noise\.epub could not be read as an EPUB book: its ZIP package is damaged/);
    });

    it('a package without its package document', async () => {
      const error = await refusal(makeZip([{ name: 'META-INF/container.xml', data: CONTAINER }]), 'empty.epub');
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toContain(
        'empty.epub could not be read as an EPUB book: its package document (OEBPS/content.opf) is missing',
      );
    });
  });
});
