import { renderInline, type Link, type Piece } from '@docconv/model';
import { linkDestination } from '@docconv/model';
import { gridRows, withoutLines, type PlacedCell, type GridCell as TableCell } from '@docconv/model';
import {
  attribute,
  BLOCK_ELEMENTS,
  cleanText,
  isElement,
  isText,
  isUnseen,
  numberAttribute,
  textContent,
  type HtmlElement,
  type HtmlNode,
  type HtmlParent,
} from './html-dom';

/** A block of the Markdown written for an HTML document; `text` is inline Markdown, `\n` a line break. */
export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'heading'; level: number; text: string }
  | { type: 'list'; ordered: boolean; items: ListItem[] }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'code'; language: string; text: string }
  | { type: 'table'; rows: BlockCell[][] }
  | { type: 'rule' };

/** A cell of a table: its content as inline text (`text`, lines of it) and as the blocks it was read from. */
export interface BlockCell extends TableCell {
  blocks: Block[];
}

/** An item of a list: its number (ordered lists) and what it holds. */
export interface ListItem {
  number: number;
  blocks: Block[];
}

/** Formatting in force where text is met, and where in the page it is. */
interface Style {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  link?: Link;
  /** Inside a sectioning element (article, aside, main, nav, section): headers and footers there are the section's own. */
  sectioned?: boolean;
}

/**
 * Where content goes while an element is read: finished blocks, and the inline pieces of the
 * paragraph being gathered. In an inline flow (a heading, a term) blocks are not started: their
 * boundaries become line breaks in the one run of pieces.
 */
interface Flow {
  blocks: Block[];
  pieces: Piece[];
  inline: boolean;
}

const PLAIN: Style = { bold: false, italic: false, strike: false };

/** How deep elements are followed; content nested deeper is kept as plain text (no call stack overflows). */
const MAX_DEPTH = 200;

/** Widest table grid kept (the HTML limit on one cell's colspan is 1000); cells past it join the last one kept. */
const MAX_COLUMNS = 1000;

/** Elements whose text is code: written as a code span. */
const CODE = new Set(['code', 'kbd', 'samp', 'tt']);

/** Sectioning elements: a header or footer outside all of them is the page's banner or footer. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Elements of preformatted text: written as a fenced code block. */
const PREFORMATTED = new Set(['pre', 'listing', 'xmp', 'plaintext']);

/** A table cell placed on its grid, with what it holds. */
interface GridCell extends PlacedCell {
  blocks: Block[];
}

/**
 * Reads an HTML document tree into Markdown blocks: headings, paragraphs, lists (description lists
 * as terms in bold with their definitions nested), quotes, code blocks, tables with their spans,
 * rules. Links keep only addresses a reader can follow; images become their alternative text.
 */
export class HtmlBlockReader {
  private links = 0;

  /** `base` resolves relative link targets (see `baseAddress`); without it they keep their text only. */
  constructor(private readonly base?: string) {}

  /** The blocks of a document's or element's content. */
  read(parent: HtmlParent): Block[] {
    return this.blocks(parent, PLAIN, 0);
  }

  private blocks(parent: HtmlParent, style: Style, depth: number): Block[] {
    const flow: Flow = { blocks: [], pieces: [], inline: false };
    for (const child of parent.childNodes) this.node(child, flow, style, depth);
    flush(flow);
    return flow.blocks;
  }

  /** The content of an element as one run of inline pieces, block boundaries as line breaks. */
  private inline(parent: HtmlParent, style: Style, depth: number): Piece[] {
    const flow: Flow = { blocks: [], pieces: [], inline: true };
    for (const child of parent.childNodes) this.node(child, flow, style, depth);
    return flow.pieces;
  }

  private node(node: HtmlNode, flow: Flow, style: Style, depth: number): void {
    if (isText(node)) {
      flow.pieces.push(textPiece(node.value, style));
      return;
    }
    if (!isElement(node) || isUnseen(node)) return;
    if (depth >= MAX_DEPTH) {
      flow.pieces.push(textPiece(` ${textContent(node)} `, style));
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
        flow.pieces.push({ kind: 'break', link: style.link });
        return true;
      case 'img': {
        const alt = attribute(element, 'alt')?.trim();
        if (alt) flow.pieces.push(textPiece(` ${alt} `, style));
        return true;
      }
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
        flow.pieces.push(textPiece('"', style));
        children(style);
        flow.pieces.push(textPiece('"', style));
        return true;
      case 'math':
        flow.pieces.push(mathPiece(element, style));
        return true;
      default:
        if (CODE.has(tag)) {
          const span = codeSpan(textContent(element));
          if (span !== '') flow.pieces.push({ kind: 'raw', markdown: span, link: style.link });
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
      const span = codeSpan(textContent(element));
      if (span !== '') flow.pieces.push({ kind: 'break' }, { kind: 'raw', markdown: span }, { kind: 'break' });
      return;
    }
    flow.pieces.push({ kind: 'break' });
    for (const child of element.childNodes) this.node(child, flow, style, depth + 1);
    flow.pieces.push({ kind: 'break' });
  }

  private blockElement(element: HtmlElement, flow: Flow, style: Style, depth: number): void {
    const tag = element.tagName;
    flush(flow);
    const out = flow.blocks;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const pieces = this.inline(element, { ...style, bold: false }, depth + 1);
      const text = renderInline(pieces.map(unbold)).replace(/\n/g, ' ');
      if (text !== '') out.push({ type: 'heading', level: Number(heading[1]), text });
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
        this.table(element, out, style, depth);
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
        if (!style.sectioned && isPageFurniture(element)) return;
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
    return target === undefined ? style : { ...style, link: { id: ++this.links, href: target } };
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
  private list(element: HtmlElement, ordered: boolean, style: Style, depth: number): Block {
    const entries = element.childNodes.filter(
      (n): n is HtmlElement => isElement(n) && n.tagName === 'li' && !isUnseen(n),
    );
    const reversed = ordered && attribute(element, 'reversed') !== undefined;
    let number = numberAttribute(element, 'start') ?? (reversed ? entries.length : 1);
    const items: ListItem[] = [];
    const stray: Flow = { blocks: [], pieces: [], inline: false };
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
  private definitionList(element: HtmlElement, style: Style, depth: number): Block {
    const items: ListItem[] = [];
    let definitions: ListItem[] | undefined;
    let term: ListItem | undefined;
    const visit = (parent: HtmlElement): void => {
      for (const child of parent.childNodes) {
        if (!isElement(child) || isUnseen(child)) {
          if (isText(child) && child.value.trim() !== '') addDefinition([paragraphOf([textPiece(child.value, style)])]);
          continue;
        }
        if (child.tagName === 'dt') {
          const text = renderInline(this.inline(child, { ...style, bold: true }, depth + 1));
          term = text === '' ? undefined : { number: 1, blocks: [{ type: 'paragraph', text }] };
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
    const addDefinition = (blocks: Block[]): void => {
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
  private blockOf(element: HtmlElement, style: Style, depth: number): Block[] {
    const flow: Flow = { blocks: [], pieces: [], inline: false };
    this.node(element, flow, style, depth + 1);
    flush(flow);
    return flow.blocks;
  }

  /**
   * A table: cells placed on the grid as HTML places them (row and column spans), each cell's
   * content as inline text (paragraphs and list items on lines of their own). Rows and columns
   * where no cell with text ends are dropped, so a row that holds only cells continuing below
   * folds into the next one and spacer rows and columns vanish. A table left with one cell is
   * layout, not data: its content is written as it is. The caption goes before the table.
   */
  private table(element: HtmlElement, out: Block[], style: Style, depth: number): void {
    const rows = tableRows(element);
    const cells = placeCells(rows).map(({ elements, ...cell }) => ({
      ...cell,
      blocks: elements.flatMap((e) => this.blocks(e, style, depth + 1)),
    }));
    const caption = element.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'caption');
    if (caption && !isUnseen(caption)) out.push(...this.blocks(caption, style, depth + 1));
    const withText: GridCell[] = cells
      .map((cell) => ({ ...cell, text: flattenBlocks(cell.blocks) }))
      .filter((cell) => cell.text !== '');
    if (withText.length === 0) return;
    const height = rows.length;
    const width = withText.reduce((w, c) => Math.max(w, c.col + c.colspan), 0);
    const keepRows = new Array<boolean>(height).fill(false);
    const keepCols = new Array<boolean>(width).fill(false);
    for (const cell of withText) {
      keepRows[cell.row + cell.rowspan - 1] = true;
      keepCols[cell.col + cell.colspan - 1] = true;
    }
    const kept = withoutLines(withText, keepRows, keepCols) as GridCell[];
    const keptHeight = keepRows.filter(Boolean).length;
    const keptWidth = keepCols.filter(Boolean).length;
    if (keptHeight === 1 && keptWidth === 1) {
      for (const cell of kept) out.push(...cell.blocks);
      return;
    }
    out.push({ type: 'table', rows: tableGrid(kept, keptHeight, keptWidth) });
  }
}

/**
 * The rows of a table from its cells on the grid (`gridRows`: empty slots filled, overlapping
 * spans cut), each cell keeping its blocks; cells that `gridRows` joins keep the blocks of both.
 */
function tableGrid(cells: GridCell[], height: number, width: number): BlockCell[][] {
  const keyed = cells.map((cell, i) => ({ ...cell, text: String(i) }));
  return gridRows(keyed, height, width).map((row) =>
    row.map(({ text: keys, rowspan, colspan }) => {
      const sources = keys === '' ? [] : keys.split(' ').map((key) => cells[Number(key)]);
      return {
        text: sources.map((c) => c.text).join(' '),
        rowspan,
        colspan,
        blocks: sources.flatMap((c) => c.blocks),
      };
    }),
  );
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

/** Ends the paragraph being gathered: pieces split at blank lines (two breaks) into paragraphs. */
function flush(flow: Flow): void {
  if (flow.inline || flow.pieces.length === 0) return;
  let run: Piece[] = [];
  let breaks = 0;
  const end = (): void => {
    const text = renderInline(run);
    if (text !== '') flow.blocks.push({ type: 'paragraph', text });
    run = [];
  };
  for (const piece of flow.pieces) {
    if (piece.kind === 'break') breaks++;
    else if (piece.kind === 'text' && piece.text.trim() === '') {
      // whitespace between breaks does not separate them
    } else {
      if (breaks >= 2) end();
      breaks = 0;
    }
    run.push(piece);
  }
  end();
  flow.pieces = [];
}

function paragraphOf(pieces: Piece[]): Block {
  return { type: 'paragraph', text: renderInline(pieces) };
}

function textPiece(text: string, style: Style): Piece {
  return {
    kind: 'text',
    text: cleanText(text),
    bold: style.bold,
    italic: style.italic,
    strike: style.strike,
    link: style.link,
  };
}

function unbold(piece: Piece): Piece {
  return piece.kind === 'text' ? { ...piece, bold: false } : piece;
}

/** Text as a code span: whitespace runs as one space, a fence longer than any backtick run inside. */
export function codeSpan(raw: string): string {
  const text = raw.replace(/[ \t\n\r\f]+/g, ' ').trim();
  if (text === '') return '';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A `<pre>` as a fenced code block: its text as written, blank lines at either end and the
 * indentation common to every line removed; the language from a `language-x` or `lang-x` class
 * on the element or the `<code>` inside it.
 */
function codeBlock(pre: HtmlElement): Block | undefined {
  const lines = textContent(pre)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return undefined;
  const indent = Math.min(...lines.filter((l) => l !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
  const code = pre.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'code');
  const classes = `${attribute(pre, 'class') ?? ''} ${code ? (attribute(code, 'class') ?? '') : ''}`;
  const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
  return { type: 'code', language, text: lines.map((l) => l.slice(indent)).join('\n') };
}

/** MathML as inline LaTeX when it carries its TeX (an annotation or `alttext`), else its text. */
function mathPiece(math: HtmlElement, style: Style): Piece {
  const stack: HtmlNode[] = [...math.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (node.tagName === 'annotation' && /tex/i.test(attribute(node, 'encoding') ?? '')) {
      const tex = textContent(node).trim();
      if (tex !== '') return { kind: 'raw', markdown: `$${tex}$`, link: style.link };
    }
    stack.push(...node.childNodes);
  }
  const alt = attribute(math, 'alttext')?.trim();
  if (alt) return { kind: 'raw', markdown: `$${alt}$`, link: style.link };
  return textPiece(textContent(math), style);
}

/** The rows of a table, its own only (not those of tables inside it): head first, foot last. */
function tableRows(table: HtmlElement): HtmlElement[] {
  const head: HtmlElement[] = [];
  const body: HtmlElement[] = [];
  const foot: HtmlElement[] = [];
  const rowsOf = (section: HtmlElement): HtmlElement[] =>
    section.childNodes.filter((n): n is HtmlElement => isElement(n) && n.tagName === 'tr' && !isUnseen(n));
  for (const child of table.childNodes) {
    if (!isElement(child) || isUnseen(child)) continue;
    if (child.tagName === 'thead') head.push(...rowsOf(child));
    else if (child.tagName === 'tbody') body.push(...rowsOf(child));
    else if (child.tagName === 'tfoot') foot.push(...rowsOf(child));
    else if (child.tagName === 'tr') body.push(child);
  }
  return [...head, ...body, ...foot];
}

/**
 * The cells of table rows on their grid, as HTML's table model places them: each cell in the
 * first column its row leaves free, spans clamped to the table (a rowspan of 0 reaching its end).
 */
function placeCells(rows: HtmlElement[]): (PlacedCell & { elements: HtmlElement[] })[] {
  const placed: (PlacedCell & { elements: HtmlElement[] })[] = [];
  const busyUntil: number[] = [];
  rows.forEach((tr, r) => {
    let col = 0;
    for (const cell of tr.childNodes) {
      if (!isElement(cell) || (cell.tagName !== 'td' && cell.tagName !== 'th') || isUnseen(cell)) continue;
      while ((busyUntil[col] ?? -1) >= r) col++;
      const last = placed.at(-1);
      if (col >= MAX_COLUMNS && last) {
        last.elements.push(cell);
        continue;
      }
      col = Math.min(col, MAX_COLUMNS - 1);
      const colspan = Math.max(1, Math.min(numberAttribute(cell, 'colspan') ?? 1, 1000, MAX_COLUMNS - col));
      const asked = numberAttribute(cell, 'rowspan') ?? 1;
      const rowspan = asked === 0 ? rows.length - r : Math.max(1, Math.min(asked, rows.length - r));
      placed.push({ row: r, col, rowspan, colspan, text: '', elements: [cell] });
      for (let k = col; k < col + colspan; k++) busyUntil[k] = r + rowspan - 1;
      col += colspan;
    }
  });
  return placed;
}

/**
 * Blocks as the lines of a table cell: paragraphs and headings as their text, list items each on
 * a line with a bullet or number, code as code spans, a table inside the cell row by row.
 */
export function flattenBlocks(blocks: Block[]): string {
  const lines: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'paragraph':
      case 'heading':
        lines.push(block.text);
        break;
      case 'list':
        for (const item of block.items) {
          const [first = '', ...rest] = flattenBlocks(item.blocks).split('\n');
          if (first === '') continue;
          lines.push(`${block.ordered ? `${item.number}.` : '•'} ${first}`, ...rest);
        }
        break;
      case 'quote':
        lines.push(flattenBlocks(block.blocks));
        break;
      case 'code':
        lines.push(...block.text.split('\n').map(codeSpan));
        break;
      case 'table':
        lines.push(...block.rows.map((row) => row.map((cell) => cell.text.replace(/\n/g, ' ')).join(' ')));
        break;
      case 'rule':
        break;
    }
  }
  return lines
    .flatMap((line) => line.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}
