import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import {
  attribute,
  isElement,
  isUnseen,
  seenElements,
  textContent,
  type HtmlElement,
  type HtmlNode,
  type HtmlParent,
} from './html-dom';

/**
 * What of a web page is read: `main`, the article of a whole web page without the site around
 * it (a fragment, which has no such site, is read whole); `full`, everything the page shows.
 */
export const HTML_CONTENT = ['main', 'full'] as const;
export type HtmlContent = (typeof HTML_CONTENT)[number];

/** Landmark roles of a page's site rather than its article. */
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Elements that hold an article's own header and footer. */
const ARTICLE_ELEMENTS = new Set(['article', 'main']);

/**
 * Whether a page is a whole web page, with a site around its article: it has navigation
 * (`<nav>`, a navigation, banner, footer, sidebar or search landmark), a sidebar (`<aside>`), or
 * a page header or footer (`<header>`, `<footer>` outside an `<article>` or `<main>`), or its ids
 * and classes name two kinds of site region (`namedSiteRegions`). A fragment (a snippet, an
 * export of one document, a message body) has none of them.
 */
export function hasSiteChrome(root: HtmlParent): boolean {
  return siteElements(root).length > 0 || namedSiteRegions(root).size >= 2;
}

/**
 * The kinds of site region a page's ids and classes name (`SITE_REGION_NAMES`): how a page laid
 * out before HTML's landmark elements (with tables and `<div id="sidebar">`) shows its site. Two
 * kinds or more make a whole web page; one alone (a `footer-note`) does not.
 */
const SITE_REGION_NAMES: Record<string, string> = {
  nav: 'navigation',
  navbar: 'navigation',
  navigation: 'navigation',
  topnav: 'navigation',
  menu: 'menu',
  sidebar: 'sidebar',
  header: 'header',
  masthead: 'header',
  footer: 'footer',
  banner: 'banner',
  breadcrumb: 'breadcrumbs',
  breadcrumbs: 'breadcrumbs',
};

function namedSiteRegions(root: HtmlParent): Set<string> {
  const kinds = new Set<string>();
  for (const element of seenElements(root)) {
    const names = `${attribute(element, 'id') ?? ''} ${attribute(element, 'class') ?? ''}`;
    // the words of each name: `TopNavigation` → top, navigation; `site-menu_top` → site, menu, top
    for (const word of names
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z]+/)) {
      const kind = SITE_REGION_NAMES[word];
      if (kind !== undefined) kinds.add(kind);
    }
  }
  return kinds;
}

/** The elements of a page that are its site rather than its article (see `hasSiteChrome`), outermost ones only. */
export function siteElements(root: HtmlParent): HtmlElement[] {
  const found: HtmlElement[] = [];
  const stack: { node: HtmlNode; inArticle: boolean }[] = root.childNodes.map((node) => ({ node, inArticle: false }));
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { node, inArticle } = entry;
    if (!isElement(node) || isUnseen(node)) continue;
    if (isChrome(node, inArticle)) {
      found.push(node);
      continue;
    }
    const inside = inArticle || ARTICLE_ELEMENTS.has(node.tagName);
    for (const child of node.childNodes) stack.push({ node: child, inArticle: inside });
  }
  return found;
}

function isChrome(element: HtmlElement, inArticle: boolean): boolean {
  if (element.tagName === 'nav' || element.tagName === 'aside') return true;
  if (!inArticle && (element.tagName === 'header' || element.tagName === 'footer')) return true;
  return CHROME_ROLES.has((attribute(element, 'role') ?? '').trim().toLowerCase());
}

/** The article of a page, as HTML, and the title it goes by. */
export interface MainContent {
  title?: string;
  html: string;
}

/**
 * Controls inside an article that Readability keeps and a reader has no use for: the "edit"
 * links of wikis' and blogs' headings, "skip to content" links.
 */
const CONTROLS = ['.mw-editsection', '.editsection', '.edit-link', '.post-edit-link', '.skip-link'];

/** What of linkedom's document is used here (its own types lean on the DOM library, which this project does not load). */
interface PageDocument {
  querySelectorAll(selectors: string): Iterable<{ remove(): void }>;
}

/** Fewer characters than this and what was found is no article: the page is read whole. */
const MIN_ARTICLE_CHARACTERS = 200;

/**
 * The article of a whole web page, found by Mozilla's Readability (Firefox's Reader View) on
 * the page parsed by linkedom: its text, headings, lists, tables, figures and links, without
 * the site's navigation, sidebars, headers, footers, tables of contents, language lists and
 * controls. `markup` is the page as the HTML reader parses it (its nesting limited). The title is
 * the page's only `<h1>` when it has one (the article's own heading; Readability takes it out of
 * the article), else the title Readability finds. Nothing when no article of some length is
 * found, or the page cannot be read this way: the caller then reads the page whole.
 */
export function mainContent(markup: string, page: HtmlParent): MainContent | undefined {
  try {
    const { document } = parseHTML(markup) as unknown as { document: PageDocument };
    for (const control of document.querySelectorAll(CONTROLS.join(', '))) control.remove();
    const article = new Readability(document, { keepClasses: false }).parse();
    if (!article?.content || (article.textContent ?? '').trim().length < MIN_ARTICLE_CHARACTERS) return undefined;
    const title = soleHeading(page) ?? article.title?.trim();
    return { html: article.content, ...(title ? { title } : {}) };
  } catch {
    return undefined;
  }
}

/** The text of the page's `<h1>` when it has exactly one that shows. */
function soleHeading(page: HtmlParent): string | undefined {
  const found = [...seenElements(page)].filter((element) => element.tagName === 'h1');
  if (found.length !== 1) return undefined;
  const text = textContent(found[0]).replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}
