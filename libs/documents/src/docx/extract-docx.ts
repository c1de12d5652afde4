import { DomainError } from '@docconv/contracts';
import { writeMarkdown, type Block, type Document, type FurnitureBlock, type Inline } from '@docconv/model';
import { open } from 'node:fs/promises';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { ImageCollector, type ExtractedImage } from '../images';
import { withZip } from '../zip/zip-reader';
import { DocxPackageError, readDocxPackage, type DocxPackage } from './docx-package';
import { DocxReader, type Picture } from './docx-reader';

const ADVICE = 'Open it in Word, save it again as a .docx file and upload the new copy.';

/**
 * Markdown from a Word document (.docx, .docm): headings from the heading, title and outline
 * styles, nested bulleted and numbered lists with Word's own numbering, bold, italic and
 * strikethrough, links, tables (GFM, or HTML with row and column spans when cells are merged;
 * every row as wide as the widest), text boxes after the paragraph they are anchored in, equations
 * as LaTeX, footnotes and endnotes as GFM footnotes, charts as their title and a table of their
 * data. Images become a short placeholder when
 * they have alternative text; comments are left out. Headers and footers are page furniture
 * (each distinct paragraph once, headers first, footers last).
 */
export async function extractDocx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return (await extractDocxWithImages(path, displayName, limits)).markdown;
}

/**
 * A Word document as the document model (see `DocxReader`) and its Markdown, with the pictures
 * taken out and linked under `imagePrefix` when it is given.
 */
export async function extractDocxWithImages(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
  imagePrefix?: string,
): Promise<{ markdown: string; document: Document; images: ExtractedImage[] }> {
  let docx: DocxPackage;
  try {
    docx = await withZip(path, readDocxPackage, new DecompressionBudget(displayName, limits));
  } catch (error) {
    if (isSystemError(error) || error instanceof DomainError) throw error;
    const { reason, advice } = await diagnose(error, path);
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as a Word document: ${reason}. ${advice}`,
      { cause: error },
    );
  }
  let reader: DocxReader;
  let blocks: Block[];
  try {
    reader = new DocxReader(docx);
    blocks = reader.read(displayName);
  } catch (error) {
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as a Word document: its content has a structure this converter cannot follow. ${ADVICE}`,
      { cause: error },
    );
  }
  const { images, unstored } = await takeOutPictures(reader.pictures, docx.media, imagePrefix);
  const document: Document = {
    version: 1,
    blocks: [
      ...furniture(docx.headers, 'header', displayName),
      ...withoutUnstored(blocks, unstored),
      ...furniture(docx.footers, 'footer', displayName),
    ],
  };
  return { markdown: writeMarkdown(document), document, images };
}

/**
 * With `imagePrefix`, each picture the package holds as a raster image is stored beside the
 * result and its inline points at it (`images/image-1.png`). The others are returned unstored.
 */
async function takeOutPictures(
  pictures: Picture[],
  media: Map<string, Buffer>,
  imagePrefix: string | undefined,
): Promise<{ images: ExtractedImage[]; unstored: Set<Inline> }> {
  const collector = new ImageCollector(imagePrefix ?? '');
  const unstored = new Set<Inline>();
  for (const [i, picture] of pictures.entries()) {
    const bytes = picture.target === undefined ? undefined : media.get(picture.target);
    const name = imagePrefix !== undefined && bytes ? await collector.add(`image-${i + 1}`, bytes) : undefined;
    if (name === undefined) unstored.add(picture.inline);
    else picture.inline.src = name;
  }
  return { images: collector.images, unstored };
}

/**
 * The blocks with each picture that was not stored replaced by the text it leaves, its
 * alternative text as `[Image: …]` (nothing without one), in the tables nested in cells too; a
 * paragraph, heading or list item left showing nothing goes.
 */
function withoutUnstored(blocks: Block[], unstored: Set<Inline>): Block[] {
  if (unstored.size === 0) return blocks;
  const replace = (content: Inline[]): Inline[] =>
    content.flatMap((inline): Inline[] => {
      if (!unstored.has(inline) || inline.kind !== 'image') return [inline];
      return inline.alt === '' ? [] : [{ kind: 'text', text: `[Image: ${inline.alt}]` }];
    });
  return blocks.flatMap((block): Block[] => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
      case 'list_item': {
        const content = replace(block.content);
        return content.length === 0 ? [] : [{ ...block, content }];
      }
      case 'footnote':
        return [{ ...block, content: replace(block.content) }];
      case 'table': {
        const rows = block.rows.map((row) =>
          row.map((cell) => ({
            ...cell,
            content: replace(cell.content),
            ...(cell.blocks ? { blocks: withoutUnstored(cell.blocks, unstored) } : {}),
          })),
        );
        return [{ ...block, rows }];
      }
      default:
        return [block];
    }
  });
}

/** Errors of the file system (the upload is missing, too many open files): not the document's fault. */
function isSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}

/** Why the package could not be read, and what the user can do about it. */
async function diagnose(error: unknown, path: string): Promise<{ reason: string; advice: string }> {
  if (error instanceof DocxPackageError) return { reason: error.message, advice: error.advice ?? ADVICE };
  const head = Buffer.alloc(8);
  try {
    const file = await open(path, 'r');
    try {
      await file.read(head, 0, 8, 0);
    } finally {
      await file.close();
    }
  } catch {
    // the file was readable a moment ago; the generic reason below still holds
  }
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    return {
      reason: 'it is password-protected, or an old Word 97–2003 (.doc) file',
      advice: 'Remove the password or save it as a .docx file in Word, then upload it again.',
    };
  }
  if (head.readUInt32BE(0) !== 0x504b0304) {
    return { reason: 'it is not a .docx file (a .docx file is a ZIP package)', advice: ADVICE };
  }
  return { reason: 'its ZIP package is damaged or incomplete', advice: ADVICE };
}

/**
 * The paragraphs of a document's headers or footers as furniture blocks, each distinct text once,
 * without those that hold no letter: a page number's field keeps the number of the page it was
 * last shown on, the same on every page.
 */
function furniture(parts: string[][], role: FurnitureBlock['role'], file: string): FurnitureBlock[] {
  const texts = new Set(parts.flat().filter((text) => /\p{L}/u.test(text)));
  return [...texts].map((text) => ({ type: 'furniture', role, text, from: { file } }));
}
