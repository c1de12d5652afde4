import { writeMarkdown, type Document } from '@docconv/model';
import { readableCharacters } from '../text-pages';
import { HtmlBlockReader } from './html-blocks';
import { baseAddress, bodyOf, parseHtml, visibleText } from './html-dom';
import { modelBlocks } from './html-model';

/** How the markup is to be read. */
export interface HtmlReadOptions {
  /** XHTML (EPUB chapters, `.xhtml` files): self-closing tags such as `<div/>` close themselves. */
  xhtml?: boolean;
  /** Joined with other documents (an EPUB's chapters): names this one's lists apart from theirs. */
  part?: string;
}

/**
 * The document an HTML document or fragment (already decoded to a string) says, its blocks from
 * `file`: headings, paragraphs and line breaks; bold, italic, strikethrough and code; links to
 * addresses a reader can follow (relative links keep their text only, unless the document's
 * `<base>` makes them absolute); images as their alternative text; nested bulleted and numbered
 * lists; description lists as terms in bold with their definitions nested; quotes; code blocks
 * with their language; tables with row and column spans, a cell's paragraphs and list items on
 * lines of their own. What a reader never sees is left out: the head, scripts, styles,
 * templates, comments, and elements that are hidden.
 */
export function htmlDocument(html: string, file: string, options: HtmlReadOptions = {}): Document {
  const document = parseHtml(html, options.xhtml);
  const blocks = new HtmlBlockReader(baseAddress(document)).read(bodyOf(document));
  return { version: 1, blocks: modelBlocks(blocks, file, options.part) };
}

/** The Markdown of an HTML document or fragment (see `htmlDocument`): empty, or ending in one line break. */
export function htmlMarkdown(html: string, options: HtmlReadOptions = {}): string {
  return writeMarkdown(htmlDocument(html, '', options));
}

/**
 * Characters of the text a reader sees in an HTML document (the head, scripts, styles, comments
 * and hidden elements left out), whitespace runs counting as one: what HTML is priced by.
 */
export function htmlReadableCharacters(html: string, options: HtmlReadOptions = {}): number {
  return readableCharacters(visibleText(bodyOf(parseHtml(html, options.xhtml))));
}
