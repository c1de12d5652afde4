export * from './document';
export * from './table-grid';
export * from './transcript';
export * from './furniture';
export * from './markdown/emphasis';
export * from './markdown/escape';
export * from './markdown/inline';
export { inlineHtml, escapeHtml } from './markdown/inline-html';
export * from './markdown/links';
export * from './markdown/markdown-blocks';
export * from './markdown/tables';
export * from './markdown/write-markdown';
export { MAX_READ_BACK_BYTES, readMarkdown } from './markdown/read-markdown';
export * from './markdown/list-layout';
export {
  inlineMarkdownText,
  inlineRuns,
  mergeAdjacentRuns,
  parseMarkdown,
  plainText,
  runsText,
  withoutStrayMarkers,
  type InlineRun as FormattedRun,
} from './markdown/parse-markdown';
