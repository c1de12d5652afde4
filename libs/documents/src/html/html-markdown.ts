import { readableCharacters } from '../text-pages';
import { HtmlBlockReader, type Block } from './html-blocks';
import { baseAddress, bodyOf, parseHtml, visibleText } from './html-dom';
import { renderBlocks } from './html-render';

/** How the markup is to be read. */
export interface HtmlReadOptions {
  /** XHTML (EPUB chapters, `.xhtml` files): self-closing tags such as `<div/>` close themselves. */
  xhtml?: boolean;
}

/**
 * GitHub-flavoured Markdown from an HTML document or fragment, already decoded to a string.
 * Headings, paragraphs and line breaks; bold, italic, strikethrough and code; links to addresses
 * a reader can follow (relative links keep their text only, unless the document's `<base>` makes
 * them absolute); images as their alternative text; nested bulleted and numbered lists; description
 * lists as terms in bold with their definitions nested; quotes; code blocks with their language;
 * tables (GFM, or HTML with row and column spans), a cell's paragraphs and list items on lines
 * of their own. What a reader never sees is left out: the head, scripts, styles, templates,
 * comments, and elements that are hidden.
 */
export function htmlMarkdown(html: string, options: HtmlReadOptions = {}): string {
  return blocksMarkdown(htmlBlocks(html, options));
}

/** The Markdown blocks of an HTML document, for a caller that writes several documents as one (an EPUB's chapters). */
export function htmlBlocks(html: string, options: HtmlReadOptions = {}): Block[] {
  const document = parseHtml(html, options.xhtml);
  return new HtmlBlockReader(baseAddress(document)).read(bodyOf(document));
}

/** Blocks as a Markdown document: empty, or ending in one line break. */
export function blocksMarkdown(blocks: Block[]): string {
  const markdown = renderBlocks(blocks).replace(/\s+$/, '');
  return markdown === '' ? '' : `${markdown}\n`;
}

/**
 * Characters of the text a reader sees in an HTML document (the head, scripts, styles, comments
 * and hidden elements left out), whitespace runs counting as one: what HTML is priced by.
 */
export function htmlReadableCharacters(html: string, options: HtmlReadOptions = {}): number {
  return readableCharacters(visibleText(bodyOf(parseHtml(html, options.xhtml))));
}
