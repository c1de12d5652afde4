import { withoutDroppedCharacters } from '@docconv/characters';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { expandSelfClosingTags, limitNesting, withoutInternalSubset } from './html-markup';

/** A node of a parsed HTML document (parse5's default tree). */
export type HtmlNode = DefaultTreeAdapterMap['node'];
export type HtmlElement = DefaultTreeAdapterMap['element'];
export type HtmlParent = DefaultTreeAdapterMap['parentNode'];

/**
 * Elements whose content a reader never sees as text: scripts and styles, document metadata,
 * embedded objects and media, form controls that show no text of their own, inline SVG.
 */
const UNSEEN = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'param',
  'canvas',
  'audio',
  'video',
  'source',
  'track',
  'map',
  'area',
  'datalist',
  'select',
  'option',
  'optgroup',
  'input',
  'textarea',
  'svg',
]);

/** Elements that start a block of their own: text before and after them is not one line. */
export const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/**
 * Parses HTML as a browser does (the WHATWG algorithm, entities decoded, misnested tags
 * repaired). Document type declarations are read as tokens only: entities they declare are
 * never expanded. `xhtml` first turns XML self-closing tags (`<div/>`, `<title/>`) into an
 * element and its end tag, which is what an XML parser would make of them.
 */
export function parseHtml(html: string, xhtml = false): DefaultTreeAdapterMap['document'] {
  return parse(htmlMarkup(html, xhtml));
}

/** The markup `parseHtml` parses: the DOCTYPE's internal subset taken out, the nesting limited, XHTML's self-closing tags expanded. */
export function htmlMarkup(html: string, xhtml = false): string {
  const markup = withoutInternalSubset(html);
  return limitNesting(xhtml ? expandSelfClosingTags(markup) : markup);
}

/** The document's `<body>`, or the document itself when it has none (a frameset). */
export function bodyOf(document: DefaultTreeAdapterMap['document']): HtmlParent {
  const html = document.childNodes.find(isElement);
  return (html && html.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'body')) ?? document;
}

/**
 * The address relative links resolve against: the document's `<base href>`, else its canonical
 * address (`<link rel="canonical">`, which a saved web page keeps), when either is absolute.
 */
export function baseAddress(document: DefaultTreeAdapterMap['document']): string | undefined {
  const html = document.childNodes.find(isElement);
  const head = html?.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'head');
  const elements = head?.childNodes.filter(isElement) ?? [];
  const base = elements.find((e) => e.tagName === 'base' && attribute(e, 'href') !== undefined);
  const canonical = elements.find(
    (e) => e.tagName === 'link' && /(?:^|\s)canonical(?:\s|$)/i.test(attribute(e, 'rel') ?? ''),
  );
  for (const candidate of [base, canonical]) {
    const href = candidate ? attribute(candidate, 'href') : undefined;
    if (href === undefined) continue;
    try {
      const url = new URL(href.trim());
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
    } catch {
      // not an absolute address: try the next
    }
  }
  return undefined;
}

export function isElement(node: HtmlNode): node is HtmlElement {
  return 'tagName' in node;
}

export function isText(node: HtmlNode): node is DefaultTreeAdapterMap['textNode'] {
  return node.nodeName === '#text';
}

/** An attribute's value, or undefined when the element does not have it. */
export function attribute(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

/** A whole-number attribute (`colspan`, `start`), or undefined when absent or not a number. */
export function numberAttribute(element: HtmlElement, name: string): number | undefined {
  const value = attribute(element, name);
  if (value === undefined) return undefined;
  const n = parseInt(value.trim(), 10);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Whether a reader never sees the element or anything in it: it is one of the unseen kinds, has
 * the `hidden` attribute (not `until-found`, which a reader can reveal) or is styled
 * `display: none`. Page-break markers of printed editions (`role="doc-pagebreak"`, EPUB's `epub:type="pagebreak"`) are left out too: their page numbers
 * would interrupt the text.
 */
export function isUnseen(element: HtmlElement): boolean {
  if (UNSEEN.has(element.tagName)) return true;
  const hidden = attribute(element, 'hidden');
  if (hidden !== undefined && hidden.toLowerCase() !== 'until-found') return true;
  if (attribute(element, 'role') === 'doc-pagebreak' || /\bpagebreak\b/.test(attribute(element, 'epub:type') ?? '')) {
    return true;
  }
  const style = attribute(element, 'style');
  return style !== undefined && /(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)/i.test(style);
}

/**
 * The elements under `root` a reader sees, with an explicit stack (any depth): not those inside
 * an unseen one, nor inside one `skipped` holds. In no particular order.
 */
export function* seenElements(root: HtmlParent, skipped?: ReadonlySet<HtmlElement>): Generator<HtmlElement> {
  const stack: HtmlNode[] = [...root.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node) || isUnseen(node) || skipped?.has(node)) continue;
    yield node;
    stack.push(...node.childNodes);
  }
}

/** Text as a reader sees it: without the dropped characters (control characters, byte order marks). */
export function cleanText(text: string): string {
  return withoutDroppedCharacters(text);
}

/**
 * The text inside an element as written, seen parts only, `<br>` as a line break. Walks with an
 * explicit stack, so however deep the markup nests it cannot overflow the call stack.
 */
export function textContent(root: HtmlParent): string {
  let out = '';
  const stack: HtmlNode[] = [...root.childNodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (isText(node)) out += node.value;
    else if (isElement(node) && !isUnseen(node)) {
      if (node.tagName === 'br') out += '\n';
      else if (node.tagName === 'img') out += attribute(node, 'alt') ?? '';
      else for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
    }
  }
  return cleanText(out);
}

/**
 * The visible text of a document for counting: seen text only, a space between blocks so their
 * words do not run together.
 */
export function visibleText(root: HtmlParent): string {
  const parts: string[] = [];
  const stack: (HtmlNode | ' ')[] = [...root.childNodes].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node === ' ') parts.push(' ');
    else if (isText(node)) parts.push(node.value);
    else if (isElement(node) && !isUnseen(node)) {
      const block = BLOCK_ELEMENTS.has(node.tagName) || node.tagName === 'br';
      if (block) stack.push(' ');
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
      if (block) stack.push(' ');
    }
  }
  return cleanText(parts.join(''));
}
