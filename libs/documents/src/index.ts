/**
 * `@docconv/documents`: intake, what the API loads. A file's kind from its bytes, its pages,
 * images and seconds for the price, archives and e-mails opened, the accepted formats, and the
 * structured result and page previews built from what the worker stored. Reading a file to
 * Markdown (the readers, OCR, the page loop) is the worker's: `@docconv/reading`.
 */
export * from './archive/extract-archive';
export {
  BLOCK_TYPES,
  MAX_TABLE_CELLS,
  htmlTableCells,
  inlineText,
  markdownBlocks,
  type BlockType,
  type MarkdownBlock,
  type TableCell,
} from '@docconv/model';
export * from './blocks/placement';
export * from './blocks/structured-result';
export * from './decompression';
export * from './detect';
export * from './formats';
export * from './inspect';
export * from './intake';
export * from './intake-pool';
export * from './kinds';
export type { PageReport } from './ocr/ocr-page';
export { HTML_CONTENT, type HtmlContent } from './html/main-content';
export * from './text-pages';
export * from './page-preview';
export * from './chunks/chunk-result';
export { TOKENIZER, countTokens } from './chunks/tokens';
export { chunksInThread } from './chunks/chunk-in-thread';
export * from './chunks/chunk-schema';
