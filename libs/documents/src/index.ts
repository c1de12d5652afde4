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
export * from './extract';
export * from './formats';
export { mapPrivateUse } from './hancom/private-use';
export * from './inspect';
export * from './intake';
export * from './intake-pool';
export * from './kinds';
export * from './ocr/ocr-page';
export * from './ocr/page-reader';
export * from './text-pages';
export * from './page-loop';
export * from './page-preview';
export { pdfjs as loadPdfReader } from './pdf/pdfjs';
export * from './page-failure';
