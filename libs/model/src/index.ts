export * from './document';
export * from './markdown/emphasis';
export * from './markdown/escape';
export * from './markdown/inline';
export { inlineHtml, escapeHtml } from './markdown/inline-html';
export * from './markdown/links';
export * from './markdown/markdown-blocks';
export * from './markdown/tables';
export * from './markdown/write-markdown';
