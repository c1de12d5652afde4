import { writeMarkdown, type Document } from '@docconv/model';
import { parse } from 'parse5';
import { readableCharacters } from '../text-pages';
import { HtmlBlockReader, type HtmlBlock } from './html-blocks';
import { baseAddress, bodyOf, htmlMarkup, parseHtml, visibleText, type HtmlParent } from './html-dom';
import { modelBlocks } from './html-model';
import { styledCellBorders } from './layout-table';
import { hasSiteChrome, mainContent, type HtmlContent } from './main-content';

/** How the markup is to be read. */
export interface HtmlReadOptions {
  /** XHTML (EPUB chapters, `.xhtml` files): self-closing tags such as `<div/>` close themselves. */
  xhtml?: boolean;
  /** Joined with other documents (an EPUB's chapters): names this one's lists apart from theirs. */
  part?: string;
  /** What of a web page is read (see `HtmlContent`); everything when absent (EPUB chapters, message bodies). */
  content?: HtmlContent;
}

/** What of a page is read: its body, or the article of a whole web page and the title it goes by. */
interface ReadablePage {
  root: HtmlParent;
  /** Resolves relative links: the page's own base address (see `baseAddress`), the article's too. */
  base?: string;
  title?: string;
  /** The whole page as parsed: its style sheets say whether every table's grid is drawn (`styledCellBorders`). */
  source: HtmlParent;
}

function readablePage(html: string, options: HtmlReadOptions): ReadablePage {
  const markup = htmlMarkup(html, options.xhtml);
  const document = parse(markup);
  const body = bodyOf(document);
  const base = baseAddress(document);
  if (options.content === 'main' && hasSiteChrome(body)) {
    const article = mainContent(markup, body);
    if (article !== undefined) {
      return { root: bodyOf(parseHtml(article.html)), base, title: article.title, source: document };
    }
  }
  return { root: body, base, source: document };
}

/**
 * The document an HTML document or fragment (already decoded to a string) says, its blocks from
 * `file`: headings, paragraphs and line breaks; bold, italic, strikethrough and code; links to
 * addresses a reader can follow (relative links keep their text only, unless the document's
 * `<base>` makes them absolute); pictures standing alone as images at their web address, in a line
 * of text as their alternative text (`picturesInText`); nested bulleted and numbered
 * lists; description lists as terms in bold with their definitions nested; quotes; code blocks
 * with their language; tables with row and column spans, a cell's paragraphs and list items on
 * lines of their own. What a reader never sees is left out: the head, scripts, styles,
 * templates, comments, and elements that are hidden. With `content: 'main'`, a whole web page is
 * read as its article, under its title (`mainContent`).
 */
export function htmlDocument(html: string, file: string, options: HtmlReadOptions = {}): Document {
  const page = readablePage(html, options);
  const blocks = new HtmlBlockReader(page.base, options.content === 'full', styledCellBorders(page.source)).read(
    page.root,
  );
  const title: HtmlBlock[] =
    page.title === undefined ? [] : [{ type: 'heading', level: 1, content: [{ kind: 'text', text: page.title }] }];
  return { version: 1, blocks: modelBlocks([...title, ...blocks], file, options.part) };
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
  const page = readablePage(html, options);
  return readableCharacters(`${page.title ?? ''} ${visibleText(page.root)}`);
}
