/**
 * `@docconv/reading`: the worker-only side of libs/documents. The readers that turn a file into
 * Markdown, OCR of pages without a text layer, and the page loop; they load the OCR engines and
 * pdf.js, which the API never needs (lint keeps them out of its reach). Intake is
 * `@docconv/documents`.
 */
export * from './extract';
export { mapPrivateUse } from './hancom/private-use';
export { siteElements } from './html/main-content';
export { decodeHtml } from './html/extract-html';
export {
  attribute,
  bodyOf,
  isElement,
  isUnseen,
  parseHtml,
  seenElements,
  textContent,
  type HtmlElement,
  type HtmlNode,
} from './html/html-dom';
export * from './ocr/ocr-page';
export * from './ocr/page-reader';
export * from './page-loop';
export { pdfjs as loadPdfReader } from './pdf/pdfjs';
export * from './page-failure';
export type { PageMarkdown } from './pdf/settled-pages';
