import { contentText, type Block, type Document, type FurnitureBlock } from './document';

/**
 * What a job does with page furniture (running heads and feet, page numbers, an office or Hancom
 * document's headers and footers), as its upload's `page_furniture` asks: `drop` it (the
 * default), `keep` it in the Markdown where it stands, or `separate` it: out of the Markdown,
 * listed in the structured result.
 */
export const PAGE_FURNITURE = ['drop', 'keep', 'separate'] as const;
export type PageFurniture = (typeof PAGE_FURNITURE)[number];

/** A reader's document with its furniture blocks dropped, shown, or left for the structured result alone. */
export function withPageFurniture(document: Document, mode: PageFurniture): Document {
  if (!document.blocks.some((block) => block.type === 'furniture')) return document;
  switch (mode) {
    case 'drop':
      return { ...document, blocks: document.blocks.filter((block) => block.type !== 'furniture') };
    case 'keep':
      if (document.blocks.every((block) => block.type !== 'furniture' || block.shown)) return document;
      return {
        ...document,
        blocks: document.blocks.map((block) => (block.type === 'furniture' ? { ...block, shown: true } : block)),
      };
    case 'separate':
      return document;
  }
}

/**
 * A header's or footer's blocks (an office or Hancom document's, read like its body) as furniture:
 * one block for each that shows text, its text plain (a table's cells in reading order).
 */
export function asFurniture(blocks: readonly Block[], role: FurnitureBlock['role']): FurnitureBlock[] {
  return blocks.flatMap((block) => {
    const text = plainText(block).replace(/\s+/g, ' ').trim();
    return text === '' ? [] : [{ type: 'furniture' as const, role, text, from: block.from }];
  });
}

function plainText(block: Block): string {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
    case 'list_item':
    case 'footnote':
    case 'transcript':
      return contentText(block.content);
    case 'table':
      return block.rows.flatMap((row) => row.map((cell) => contentText(cell.content))).join(' ');
    case 'furniture':
      return block.text;
    default:
      return '';
  }
}
