import type { Document } from '@docconv/model';
import { withoutDroppedCharacters } from '@docconv/characters';
import { documentBlocks, type Block } from './document-blocks';
import { HwpxStyleBook } from './hwpx-header';
import { hwpxPackage } from './hwpx-package';
import { HwpxPictures } from './hwpx-pictures';
import { sectionXml } from './hwpx-section';
import { type InlineRun } from './markdown-tree';
import type { RenderImages } from './render-images';
import { formattedRuns, tableGrid } from './table-model';

export interface HwpxOptions {
  title: string;
  /** The pictures the Markdown links, by link target; a picture not here is written as its alt text. */
  images?: RenderImages;
}

/** How much of the text the package's preview part holds. */
const PREVIEW_CHARS = 1024;

/**
 * A Hancom Office (HWPX / OWPML) document: headings as outline paragraphs in the 개요 styles,
 * bold, italic, strike and code runs, bulleted and numbered lists, code blocks, tables with
 * borders, a shaded header row and merged cells, and the pictures the Markdown links, in
 * 함초롬바탕 and 함초롬돋움 (바탕 and 돋움 where those are missing). The title goes into the
 * package metadata.
 */
export async function renderHwpx(document: Document, options: HwpxOptions): Promise<Buffer> {
  const blocks = documentBlocks(document);
  const pictures = await HwpxPictures.read(pictureSources(blocks), options.images);
  const book = new HwpxStyleBook();
  const section = sectionXml(blocks, book, pictures);
  return hwpxPackage({
    title: withoutDroppedCharacters(options.title),
    headerXml: book.xml(1),
    sectionXml: section,
    pictures: pictures.binaryItems(),
    previewText: previewText(blocks),
    created: new Date(),
  });
}

/** The link targets of every picture in the blocks' text and table cells. */
function pictureSources(blocks: Block[]): string[] {
  return blocks.flatMap((block) => {
    if (block.kind !== 'table') return 'runs' in block ? block.runs.flatMap(pictureSource) : [];
    return tableGrid(block.table).flatMap((row, r) =>
      row.flatMap((_, c) => formattedRuns(block.table, r, c).flatMap(pictureSource)),
    );
  });
}

function pictureSource(run: InlineRun): string[] {
  return run.image ? [run.image.src] : [];
}

/** The start of the document as plain text: one line per block, a table's cells separated by spaces. */
function previewText(blocks: Block[]): string {
  const lines = blocks.map((block) => {
    switch (block.kind) {
      case 'heading':
      case 'paragraph':
      case 'listItem':
      case 'code':
        return block.text;
      case 'table':
        return tableGrid(block.table)
          .map((row) => row.join(' '))
          .join('\r\n');
      case 'rule':
        return '';
    }
  });
  return lines.join('\r\n').slice(0, PREVIEW_CHARS);
}
