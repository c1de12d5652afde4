/**
 * How formats without pages are priced: a page is this many characters of readable text
 * (tags, markup and whitespace runs not counted), and a file is at least one page. Plain text,
 * HTML, EPUB and e-mail bodies, and word-processing files that do not store a page count, are
 * counted with it.
 */
export const CHARACTERS_PER_PAGE = 3000;

/** Pages for `characters` of readable text: at least one. */
export function textPages(characters: number): number {
  return Math.max(1, Math.ceil(characters / CHARACTERS_PER_PAGE));
}

/** Readable characters of a text: whitespace runs count as one. */
export function readableCharacters(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}
