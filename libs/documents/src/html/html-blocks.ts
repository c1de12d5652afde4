import { linkDestination, type Inline } from '@docconv/model';
import {
  attribute,
  BLOCK_ELEMENTS,
  isElement,
  isText,
  isUnseen,
  numberAttribute,
  textContent,
  type HtmlElement,
  type HtmlNode,
  type HtmlParent,
} from './html-dom';
import { readTable, type TableCell } from './html-table';
import { codeBlock, codeText, isEmpty, linkOf, mathInline, picture, text, unbold, type Style } from './html-inline';

/**
 * What an HTML document says, as the reader meets it: blocks nested as the markup nests them
 * (a list item holding paragraphs and lists, a quotation holding paragraphs, a table cell
 * holding blocks), their text as the model's plain inline runs. `html-model.ts` lays the tree
 * out as the model's flat blocks.
 */
export type HtmlBlock =
  | { type: 'paragraph'; content: Inline[] }
  | { type: 'heading'; level: number; content: Inline[] }
  | { type: 'list'; ordered: boolean; items: ListItem[] }
  | { type: 'quote'; blocks: HtmlBlock[] }
  | { type: 'code'; language: string; text: string }
  | { type: 'table'; rows: TableCell[][]; headerRows: number }
  | { type: 'rule' };

/** An item of a list: its number (ordered lists) and what it holds. */
export interface ListItem {
  number: number;
  blocks: HtmlBlock[];
}

/**
 * Where content goes while an element is read: finished blocks, and the inline runs of the
 * paragraph being gathered. In an inline flow (a heading, a term) blocks are not started: their
 * boundaries become line breaks in the one run of content.
 */
interface Flow {
  blocks: HtmlBlock[];
  content: Inline[];
  inline: boolean;
}

const PLAIN: Style = {};

/** How deep elements are followed; content nested deeper is kept as plain text (no call stack overflows). */
const MAX_DEPTH = 200;

/** Elements whose text is code: a code run. */
const CODE = new Set(['code', 'kbd', 'samp', 'tt']);

/** Sectioning elements: a header or footer outside all of them is the page's banner or footer. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Elements of preformatted text: a code block. */
const PREFORMATTED = new Set(['pre', 'listing', 'xmp', 'plaintext']);

/**
 * Reads an HTML document tree into blocks: headings, paragraphs, lists (description lists as
 * terms in bold with their definitions nested), quotes, code blocks, tables with their spans,
 * rules. Links keep only addresses a reader can follow; a picture is an image at its web address,
 * or its alternative text when it has none.
 */
export class HtmlBlockReader {
  /**
   * `base` resolves relative link targets (see `baseAddress`); without it they keep their text
   * only. `keepPageFurniture` reads the page's own header and footer too (`isPageFurniture`).
   * `pageBorders`: the page's style sheets draw every table's grid (`styledCellBorders`).
   */
  constructor(
    private readonly base?: string,
    private readonly keepPageFurniture = false,
    private readonly pageBorders = false,
  ) {}

  /** The blocks of a document's or element's content. */
  read(parent: HtmlParent): HtmlBlock[] {
    return this.blocks(parent, PLAIN, 0);
  }

  private blocks(parent: HtmlParent, style: Style, depth: number): HtmlBlock[] {
    const flow: Flow = { blocks: [], content: [], inline: false };
    for (const child of parent.childNodes) this.node(child, flow, style, depth);
    flush(flow);
    return flow.blocks;
  }

  /** The content of an element as one run of inline content, block boundaries as line breaks. */
  private inline(parent: HtmlParent, style: Style, depth: number): Inline[] {
    const flow: Flow = { blocks: [], content: [], inline: true };
    for (const child of parent.childNodes) this.node(child, flow, style, depth);
    return flow.content;
  }

  private node(node: HtmlNode, flow: Flow, style: Style, depth: number): void {
    if (isText(node)) {
      flow.content.push(text(node.value, style));
      return;
    }
    if (!isElement(node) || isUnseen(node)) return;
    if (depth >= MAX_DEPTH) {
      flow.content.push(text(` ${textContent(node)} `, style));
      return;
    }
    if (this.inlineElement(node, flow, style, depth)) return;
    if (flow.inline) {
      this.breakAround(node, flow, style, depth);
      return;
    }
    this.blockElement(node, flow, style, depth);
  }

  /** Reads an element that belongs to a line of text; false when it is a block. */
  private inlineElement(element: HtmlElement, flow: Flow, style: Style, depth: number): boolean {
    const tag = element.tagName;
    const children = (inner: Style): void => {
      for (const child of element.childNodes) this.node(child, flow, inner, depth + 1);
    };
    switch (tag) {
      case 'br':
        flow.content.push({ kind: 'break' });
        return true;
      case 'img':
        flow.content.push(...picture(element, style, this.resolve(attribute(element, 'src')?.trim() ?? '')));
        return true;
      case 'b':
      case 'strong':
        children({ ...style, bold: true });
        return true;
      case 'i':
      case 'em':
      case 'cite':
      case 'dfn':
      case 'var':
        children({ ...style, italic: true });
        return true;
      case 's':
      case 'strike':
      case 'del':
        children({ ...style, strike: true });
        return true;
      case 'a':
        children(this.linked(element, style));
        return true;
      case 'q':
        flow.content.push(text('"', style));
        children(style);
        flow.content.push(text('"', style));
        return true;
      case 'math':
        flow.content.push(mathInline(element, style));
        return true;
      default:
        if (CODE.has(tag)) {
          const code = codeText(textContent(element));
          if (code !== '') flow.content.push({ kind: 'text', text: code, code: true, ...linkOf(style) });
          return true;
        }
        if (BLOCK_ELEMENTS.has(tag) || PREFORMATTED.has(tag)) return false;
        children(style);
        return true;
    }
  }

  /** A block element inside an inline flow: its content on lines of its own. */
  private breakAround(element: HtmlElement, flow: Flow, style: Style, depth: number): void {
    if (PREFORMATTED.has(element.tagName)) {
      const code = codeText(textContent(element));
      if (code !== '')
        flow.content.push({ kind: 'break' }, { kind: 'text', text: code, code: true }, { kind: 'break' });
      return;
    }
    flow.content.push({ kind: 'break' });
    for (const child of element.childNodes) this.node(child, flow, style, depth + 1);
    flow.content.push({ kind: 'break' });
  }

  private blockElement(element: HtmlElement, flow: Flow, style: Style, depth: number): void {
    const tag = element.tagName;
    flush(flow);
    const out = flow.blocks;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const content = this.inline(element, { ...style, bold: false }, depth + 1).map(unbold);
      if (!isEmpty(content)) out.push({ type: 'heading', level: Number(heading[1]), content });
      return;
    }
    switch (tag) {
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        out.push(this.list(element, tag === 'ol', style, depth));
        return;
      case 'li':
        out.push({
          type: 'list',
          ordered: false,
          items: [{ number: 1, blocks: this.blocks(element, style, depth + 1) }],
        });
        return;
      case 'dl':
        out.push(this.definitionList(element, style, depth));
        return;
      case 'blockquote':
        out.push({ type: 'quote', blocks: this.blocks(element, style, depth + 1) });
        return;
      case 'table':
        out.push(...readTable(element, (cell) => this.blocks(cell, style, depth + 1), this.pageBorders));
        return;
      case 'hr':
        out.push({ type: 'rule' });
        return;
      default: {
        if (PREFORMATTED.has(tag)) {
          const code = codeBlock(element);
          if (code) out.push(code);
          return;
        }
        if (!this.keepPageFurniture && !style.sectioned && isPageFurniture(element)) return;
        const inner = SECTIONING.has(tag) && !style.sectioned ? { ...style, sectioned: true } : style;
        for (const child of element.childNodes) this.node(child, flow, inner, depth + 1);
        flush(flow);
      }
    }
  }

  /** The style inside a link: linked when its target is an address a reader can follow. */
  private linked(anchor: HtmlElement, style: Style): Style {
    const href = attribute(anchor, 'href');
    const target = href === undefined ? undefined : this.resolve(href.trim());
    return target === undefined ? style : { ...style, link: target };
  }

  private resolve(href: string): string | undefined {
    let absolute = href.startsWith('//') ? `https:${href}` : href;
    if (this.base !== undefined && absolute !== '' && !absolute.startsWith('#')) {
      try {
        absolute = new URL(absolute, this.base).href;
      } catch {
        // not an address even against the base: left as written
      }
    }
    return linkDestination(absolute);
  }

  /**
   * A bulleted or numbered list. Numbers follow `start`, `reversed` and each item's `value`.
   * Content between items that is not an item (a list nested directly in the list, stray text)
   * goes into the item before it.
   */
  private list(element: HtmlElement, ordered: boolean, style: Style, depth: number): HtmlBlock {
    const entries = element.childNodes.filter(
      (n): n is HtmlElement => isElement(n) && n.tagName === 'li' && !isUnseen(n),
    );
    const reversed = ordered && attribute(element, 'reversed') !== undefined;
    let number = numberAttribute(element, 'start') ?? (reversed ? entries.length : 1);
    const items: ListItem[] = [];
    const stray: Flow = { blocks: [], content: [], inline: false };
    const takeStray = (): void => {
      flush(stray);
      if (stray.blocks.length === 0) return;
      const last = items.at(-1);
      if (last) last.blocks.push(...stray.blocks);
      else items.push({ number, blocks: stray.blocks });
      stray.blocks = [];
    };
    for (const child of element.childNodes) {
      if (isElement(child) && child.tagName === 'li') {
        if (isUnseen(child)) continue;
        takeStray();
        number = numberAttribute(child, 'value') ?? number;
        items.push({ number, blocks: this.blocks(child, style, depth + 1) });
        number += reversed ? -1 : 1;
      } else {
        this.node(child, stray, style, depth + 1);
      }
    }
    takeStray();
    return { type: 'list', ordered, items };
  }

  /**
   * A description list as a bulleted list: each term in bold, its definitions as a list nested
   * under it. A definition holding only a list (a nested description list) adds that list's
   * items in its place; definitions with no term before them are items of their own.
   */
  private definitionList(element: HtmlElement, style: Style, depth: number): HtmlBlock {
    const items: ListItem[] = [];
    let definitions: ListItem[] | undefined;
    let term: ListItem | undefined;
    const visit = (parent: HtmlElement): void => {
      for (const child of parent.childNodes) {
        if (!isElement(child) || isUnseen(child)) {
          if (isText(child) && child.value.trim() !== '')
            addDefinition([{ type: 'paragraph', content: [text(child.value, style)] }]);
          continue;
        }
        if (child.tagName === 'dt') {
          const content = this.inline(child, { ...style, bold: true }, depth + 1);
          term = isEmpty(content) ? undefined : { number: 1, blocks: [{ type: 'paragraph', content }] };
          definitions = undefined;
          if (term) items.push(term);
        } else if (child.tagName === 'div') {
          visit(child);
        } else {
          addDefinition(
            child.tagName === 'dd' ? this.blocks(child, style, depth + 1) : this.blockOf(child, style, depth),
          );
        }
      }
    };
    const addDefinition = (blocks: HtmlBlock[]): void => {
      if (blocks.length === 0) return;
      const only = blocks.length === 1 ? blocks[0] : undefined;
      const entries = only?.type === 'list' && !only.ordered ? only.items : [{ number: 1, blocks }];
      if (!term) {
        items.push(...entries);
        return;
      }
      if (!definitions) {
        definitions = [];
        term.blocks.push({ type: 'list', ordered: false, items: definitions });
      }
      definitions.push(...entries);
    };
    visit(element);
    return { type: 'list', ordered: false, items };
  }

  /** The blocks one element makes on its own. */
  private blockOf(element: HtmlElement, style: Style, depth: number): HtmlBlock[] {
    const flow: Flow = { blocks: [], content: [], inline: false };
    this.node(element, flow, style, depth + 1);
    flush(flow);
    return flow.blocks;
  }
}

/**
 * Whether an element outside every sectioning element is the site's furniture rather than the
 * document's: the page footer (copyright, site links), or a page header with no heading in it
 * (menus, search, account links). A page header holding the document's title is kept.
 */
function isPageFurniture(element: HtmlElement): boolean {
  if (element.tagName === 'footer') return true;
  return element.tagName === 'header' && !hasHeading(element);
}

function hasHeading(element: HtmlElement): boolean {
  const stack: HtmlNode[] = [...element.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node) || isUnseen(node)) continue;
    if (/^h[1-6]$/.test(node.tagName)) return true;
    stack.push(...node.childNodes);
  }
  return false;
}

/** Ends the paragraph being gathered: its content split at blank lines (two breaks) into paragraphs. */
function flush(flow: Flow): void {
  if (flow.inline || flow.content.length === 0) return;
  let run: Inline[] = [];
  let breaks = 0;
  const end = (): void => {
    if (!isEmpty(run)) flow.blocks.push({ type: 'paragraph', content: run });
    run = [];
  };
  for (const inline of flow.content) {
    if (inline.kind === 'break') breaks++;
    else if (inline.kind === 'text' && !inline.code && inline.text.trim() === '') {
      // whitespace between breaks does not separate them
    } else {
      if (breaks >= 2) end();
      breaks = 0;
    }
    run.push(inline);
  }
  end();
  flow.content = [];
}
