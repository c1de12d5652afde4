import {
  attribute,
  bodyOf,
  parseHtml,
  seenElements,
  siteElements,
  textContent,
  type HtmlElement,
} from '@docconv/reading';

/**
 * How a whole web page read as its article (html_content=main) came out, against the page's own
 * markup: its paragraphs of prose outside the site (`<p>` of at least `PROSE` characters) are
 * the article, and the links and list items of its site (navigation, sidebars, page headers and
 * footers, landmark roles: `siteElements`; not a table of contents' links into the page, whose
 * entries are the article's own headings) are what should be gone.
 * - `articleKept`: the share of those paragraphs whose text is in the output;
 * - `siteGone`: the share of the site's items (distinct texts of 3 letters or more) that are
 *   not a line, list item or table cell of the output of their own.
 * Nothing for a page without a site around it (a fragment).
 */
export interface WebPageScore {
  articleKept?: number;
  siteGone?: number;
  paragraphs: number;
  siteItems: number;
}

/** Characters a paragraph needs to count as prose of the article. */
const PROSE = 80;
/** How much of a paragraph's start is looked for in the output. */
const PROBE = 100;

export function webPageScore(html: string, markdown: string): WebPageScore | undefined {
  const body = bodyOf(parseHtml(html));
  const site = siteElements(body);
  if (site.length === 0) return undefined;
  const siteSet = new Set(site);
  const paragraphs = [...seenElements(body, siteSet)]
    .filter((element) => element.tagName === 'p')
    .map((p) => comparable(textContent(p)))
    .filter((text) => text.length >= PROSE);
  const items = new Set(
    site
      .flatMap((element) => [element, ...seenElements(element)])
      .filter((element) => (element.tagName === 'a' || element.tagName === 'li') && !intoThePage(element))
      .map((element) => comparable(textContent(element)))
      .filter((text) => text.length >= 3),
  );
  const output = comparable(markdownText(markdown));
  const pieces = new Set(
    markdown
      .split(/\n|\|/)
      .map((piece) => comparable(markdownText(piece)))
      .filter((piece) => piece !== ''),
  );
  return {
    ...(paragraphs.length > 0
      ? { articleKept: paragraphs.filter((p) => output.includes(p.slice(0, PROBE))).length / paragraphs.length }
      : {}),
    ...(items.size > 0 ? { siteGone: [...items].filter((item) => !pieces.has(item)).length / items.size } : {}),
    paragraphs: paragraphs.length,
    siteItems: items.size,
  };
}

/**
 * Whether an item links into the page itself (`#…`, or holds such a link): a table of contents,
 * whose entries are the article's own headings, not the site's.
 */
function intoThePage(element: HtmlElement): boolean {
  const links = element.tagName === 'a' ? [element] : [...seenElements(element)].filter((e) => e.tagName === 'a');
  return links.some((link) => (attribute(link, 'href') ?? '').trim().startsWith('#'));
}

/** The words of Markdown without its syntax: link targets, tags, emphasis and list markers gone. */
function markdownText(markdown: string): string {
  return markdown
    .replace(/\]\([^)]*\)/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '');
}

/** Letters and digits only, lower case: what two renderings of one text share. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
