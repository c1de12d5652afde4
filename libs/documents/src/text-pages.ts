/**
 * How files are priced that do not store their pages. Two units, both counting readable text
 * (tags, markup and whitespace runs not counted), a file being at least one page:
 * - a text page: formats that never had pages (web pages, plain text, e-mail bodies, EPUB books)
 *   are read straight from their text, with no layout or OCR, so a page is a long stretch of it:
 *   a web article, an e-mail or a README of ordinary length is one page;
 * - a printed page: word-processing files that do not store their page count (ODT, DOC, RTF,
 *   DOCX) were written to be printed, so their text is counted as it would print.
 */
export const TEXT_PAGE_CHARACTERS = 10_000;
export const PRINTED_PAGE_CHARACTERS = 3_000;

/** Text pages for `characters` of readable text: at least one. */
export function textPages(characters: number): number {
  return Math.max(1, Math.ceil(characters / TEXT_PAGE_CHARACTERS));
}

/** Printed pages for `characters` of readable text: at least one. */
export function printedPages(characters: number): number {
  return Math.max(1, Math.ceil(characters / PRINTED_PAGE_CHARACTERS));
}

/** Readable characters of a text: whitespace runs count as one. */
export function readableCharacters(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}
