/**
 * Repairs applied to HTML markup before it is parsed: the internal subset of a document type
 * declaration dropped, XHTML's self-closing tags expanded, and nesting capped so a hostile
 * document cannot make the parser's work grow without bound.
 */

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
 * The markup without the internal subset of its leading document type declaration
 * (`<!DOCTYPE html [ <!ENTITY …> ]>`). An HTML parser ends the declaration at its first `>` and
 * shows the rest of the subset as text; an XML parser would expand its entities. Neither is
 * wanted: the subset is dropped, and references to its entities stay as written.
 */
export function withoutInternalSubset(markup: string): string {
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
export function limitNesting(markup: string): string {
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
export function expandSelfClosingTags(markup: string): string {
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
