import { DomainError } from '@docconv/contracts';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { htmlDocument, htmlReadableCharacters } from '../html/html-markdown';
import { plain, writeMarkdown, type Block, type Document } from '@docconv/model';
import { readableCharacters, textPages } from '../text-pages';
import { withZip } from '../zip/zip-reader';
import { EpubDrmError, EpubPackageError, readEpub, type EpubBook } from './epub-package';

const ADVICE = 'Export the book again from the application or store it came from and upload the new copy.';

/** How much of the start of the book is searched for its title before a title heading is added. */
const TITLE_SEARCH_CHARACTERS = 2000;

/**
 * The document of an EPUB book: its chapters in reading order (the spine), each read as HTML
 * (headings, lists, quotes, tables, images as their alternative text), their blocks one after
 * the other (each chapter's lists are lists of their own, so a list that ends one chapter and one
 * that starts the next stay apart). When the chapters do not open with the book's title, a title
 * heading with the authors and the description goes first. Books protected by DRM and damaged
 * packages are refused with what to do instead.
 */
export async function extractEpub(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  const book = await openEpub(path, displayName, limits);
  const body = book.chapters.flatMap(
    (chapter, i) => htmlDocument(chapter, displayName, { xhtml: true, part: `chapter-${i + 1}-` }).blocks,
  );
  return { version: 1, blocks: [...frontMatter(book, body, displayName), ...body] };
}

/** Pages of an EPUB book: the readable characters of its chapters (and added title) in text pages (TEXT_PAGE_CHARACTERS). */
export async function countEpubPages(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<number> {
  const book = await openEpub(path, displayName, limits);
  const characters = book.chapters.reduce((sum, chapter) => sum + htmlReadableCharacters(chapter, { xhtml: true }), 0);
  return textPages(characters + readableCharacters([book.title ?? '', ...book.authors].join(' ')));
}

/** Reads the book's package, every failure turned into a DomainError saying what to do. */
async function openEpub(path: string, displayName: string, limits: DecompressionLimits): Promise<EpubBook> {
  try {
    return await withZip(path, readEpub, new DecompressionBudget(displayName, limits));
  } catch (error) {
    if (error instanceof DomainError || isSystemError(error)) throw error;
    if (error instanceof EpubDrmError) {
      const message = `${displayName} is protected by DRM (digital rights management), so its text cannot be read. Upload a DRM-free copy of the book (many stores offer one), or remove the protection first where the book's licence allows it.`;
      throw new DomainError('unsupported_format', message, { cause: error });
    }
    const reason =
      error instanceof EpubPackageError
        ? error.message
        : 'its ZIP package is damaged or incomplete, or it is not a ZIP file';
    const message = `${displayName} could not be read as an EPUB book: ${reason}. ${ADVICE}`;
    throw new DomainError('unsupported_format', message, { cause: error });
  }
}

/** Errors of the file system (the upload is missing, too many open files): not the book's fault. */
function isSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}

/**
 * The title heading, authors and description, when the chapters do not already open with the
 * title (a title page): a book whose first chapter starts elsewhere still says what it is.
 */
function frontMatter(book: EpubBook, body: Block[], file: string): Block[] {
  const title = book.title?.trim();
  if (!title) return [];
  const opening = comparable(writeMarkdown({ version: 1, blocks: body }).slice(0, TITLE_SEARCH_CHARACTERS));
  if (opening.includes(comparable(title))) return [];
  const from = { file };
  const blocks: Block[] = [{ type: 'heading', level: 1, content: plain(title), from }];
  if (book.authors.length > 0) {
    const content = [...plain('Authors:', { bold: true }), ...plain(` ${book.authors.join(', ')}`)];
    blocks.push({ type: 'paragraph', content, from });
  }
  if (book.description) blocks.push(...htmlDocument(book.description, file, { part: 'description-' }).blocks);
  return blocks;
}

/** Text reduced to lower-case letters and digits, to find a title however it is written. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
