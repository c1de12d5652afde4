import { withoutDroppedCharacters } from '@docconv/characters';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

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

/** Void elements of HTML: written `<br/>` in XHTML, they have no end tag to add. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * Parses HTML as a browser does (the WHATWG algorithm, entities decoded, misnested tags
 * repaired). Document type declarations are read as tokens only: entities they declare are
 * never expanded. `xhtml` first turns XML self-closing tags (`<div/>`, `<title/>`) into an
 * element and its end tag, which is what an XML parser would make of them.
 */
export function parseHtml(html: string, xhtml = false): DefaultTreeAdapterMap['document'] {
  const markup = withoutInternalSubset(html);
  return parse(limitNesting(xhtml ? expandSelfClosingTags(markup) : markup));
}

/**
 * The markup without the internal subset of its leading document type declaration
 * (`<!DOCTYPE html [ <!ENTITY …> ]>`). An HTML parser ends the declaration at its first `>` and
 * shows the rest of the subset as text; an XML parser would expand its entities. Neither is
 * wanted: the subset is dropped, and references to its entities stay as written.
 */
function withoutInternalSubset(markup: string): string {
  const doctype = markup.slice(0, 4096).search(/<!DOCTYPE/i);
  if (doctype < 0) return markup;
  const open = markup.indexOf('[', doctype);
  const close = markup.indexOf('>', doctype);
  if (open < 0 || close < 0 || open > close) return markup;
  for (let end = markup.indexOf(']', open); end >= 0; end = markup.indexOf(']', end + 1)) {
    const after = /^\s*>/.exec(markup.slice(end + 1, end + 65));
    if (after) return `${markup.slice(0, open)}>${markup.slice(end + 1 + after[0].length)}`;
  }
  return markup;
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
 * the `hidden` attribute (not `until-found`, which a reader can reveal) or is styled `display: none`. Page-break markers of printed editions
 * (`role="doc-pagebreak"`, EPUB's `epub:type="pagebreak"`) are left out too: their page numbers
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

/** How deep elements may nest before further start tags are dropped (as Chrome's parser caps its tree at 512). */
const MAX_NESTING = 512;

/**
 * How many formatting elements (`<b>`, `<font>`…) may be open at once. A parser re-opens every
 * formatting element still open in each new block, so each one left unclosed costs work in every
 * paragraph after it; no document needs more than this.
 */
const MAX_OPEN_FORMATTING = 32;

/** HTML's formatting elements: those a parser re-opens after a block closes them implicitly. */
const FORMATTING = new Set([
  'a',
  'b',
  'big',
  'code',
  'em',
  'font',
  'i',
  'nobr',
  's',
  'small',
  'strike',
  'strong',
  'tt',
  'u',
]);

/** Elements whose end tag may be left out: a new one closes the last, so they do not nest by themselves. */
const OPTIONAL_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'td',
  'th',
  'tr',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rp',
  'rtc',
  'html',
  'head',
  'body',
]);

/** Elements whose content is raw text: tags inside them are not tags. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** Elements a parser never nests in themselves: a second start tag closes or is ignored. */
const NOT_SELF_NESTING = new Set(['a', 'nobr', 'button', 'form']);

const TAG = /<!--|<(\/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*>/g;

/**
 * The markup with start tags past `MAX_NESTING` open elements dropped, and their end tags with
 * them. Parsing HTML takes time in proportion to how deep elements are open at each tag, so a
 * document of thousands of nested elements would take minutes; this keeps it linear. An
 * approximate stack is kept in one pass: elements with optional end tags and void elements are
 * not counted, an end tag closes back to its element. Real documents nest far less and pass
 * unchanged.
 */
function limitNesting(markup: string): string {
  const stack: string[] = [];
  let formatting = 0;
  const dropped = new Map<string, number>();
  const cuts: [number, number][] = [];
  const drop = (match: RegExpExecArray): void => {
    cuts.push([match.index, match.index + match[0].length]);
  };
  TAG.lastIndex = 0;
  for (let match = TAG.exec(markup); match; match = TAG.exec(markup)) {
    if (match[0] === '<!--') {
      const end = markup.indexOf('-->', match.index + 4);
      if (end < 0) break;
      TAG.lastIndex = end + 3;
      continue;
    }
    const name = match[2].toLowerCase();
    if (VOID_ELEMENTS.has(name) || OPTIONAL_END.has(name)) continue;
    if (match[1] === '/') {
      const skipped = dropped.get(name) ?? 0;
      if (skipped > 0) {
        dropped.set(name, skipped - 1);
        drop(match);
      } else {
        const open = stack.lastIndexOf(name);
        if (open >= 0) {
          for (const closed of stack.splice(open)) if (FORMATTING.has(closed)) formatting--;
        }
      }
      continue;
    }
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}[\\s/>]`, 'gi');
      close.lastIndex = TAG.lastIndex;
      const end = close.exec(markup);
      if (!end) break;
      TAG.lastIndex = end.index;
      continue;
    }
    if (NOT_SELF_NESTING.has(name) && stack.includes(name)) continue;
    const isFormatting = FORMATTING.has(name);
    if (stack.length >= MAX_NESTING || (isFormatting && formatting >= MAX_OPEN_FORMATTING)) {
      dropped.set(name, (dropped.get(name) ?? 0) + 1);
      drop(match);
    } else {
      stack.push(name);
      if (isFormatting) formatting++;
    }
  }
  if (cuts.length === 0) return markup;
  let out = '';
  let from = 0;
  for (const [start, end] of cuts) {
    out += markup.slice(from, start);
    from = end;
  }
  return out + markup.slice(from);
}

const TAG_NAME = /[A-Za-z][^\s/>]*/y;

/**
 * XHTML's self-closing tags made explicit: `<a id="x"/>` becomes `<a id="x"></a>`, so an HTML
 * parser does not take `<title/>` or `<script/>` as opening the rest of the document. Void
 * elements (`<br/>`) stay as written; comments are skipped. One pass, linear in the input.
 */
function expandSelfClosingTags(markup: string): string {
  let out = '';
  let copied = 0;
  let i = markup.indexOf('<');
  while (i >= 0) {
    if (markup.startsWith('<!--', i)) {
      const end = markup.indexOf('-->', i + 4);
      if (end < 0) break;
      i = markup.indexOf('<', end + 3);
      continue;
    }
    TAG_NAME.lastIndex = i + 1;
    const name = TAG_NAME.exec(markup)?.[0];
    if (name === undefined) {
      i = markup.indexOf('<', i + 1);
      continue;
    }
    const end = tagEnd(markup, TAG_NAME.lastIndex);
    if (end === undefined) break;
    if (markup[end] === '>' && markup[end - 1] === '/' && !VOID_ELEMENTS.has(name.toLowerCase())) {
      out += `${markup.slice(copied, end - 1)}></${name}>`;
      copied = end + 1;
    }
    i = markup.indexOf('<', markup[end] === '<' ? end : end + 1);
  }
  return copied === 0 ? markup : out + markup.slice(copied);
}

/**
 * Where a tag whose attributes start at `from` ends: the index of its `>`, or of a `<` that
 * interrupts it (not a tag after all); undefined when the input ends first. Quoted values are
 * skipped whole.
 */
function tagEnd(markup: string, from: number): number | undefined {
  for (let j = from; j < markup.length; j++) {
    const c = markup[j];
    if (c === '>' || c === '<') return j;
    if (c === '"' || c === "'") {
      const close = markup.indexOf(c, j + 1);
      if (close < 0) return undefined;
      j = close;
    }
  }
  return undefined;
}
