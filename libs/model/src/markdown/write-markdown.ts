import type { Block, Cell, Document, Inline, ListItemBlock } from '../document';
import { escapeHeadingText, escapeLineStart } from './escape';
import { renderInline, type Piece } from './inline';
import { ListLayout, type ListPlace } from './list-layout';
import { tableMarkdown, type GridCell } from './tables';

/**
 * The one Markdown writer: a document's blocks as CommonMark with GFM tables. Text is escaped
 * here and nowhere else, so what the page says is what a Markdown reader shows. Blocks are
 * separated by a blank line, the items of one list by a line break; page furniture is left
 * out. A block a reader not yet ported wrote as Markdown (`written`) is copied as it was.
 */
export function writeMarkdown(document: Document): string {
  let out = '';
  let previous: Block | undefined;
  const lists = new ListLayout();
  for (const block of document.blocks) {
    if (block.written !== undefined) {
      out += block.written;
      previous = block;
      lists.end();
      continue;
    }
    const markdown = blockMarkdown(block, lists);
    if (markdown === undefined) continue;
    if (block.type !== 'list_item') lists.end();
    if (previous !== undefined) out += separator(previous, block);
    out += markdown;
    previous = block;
  }
  if (document.trailing !== undefined) return out + document.trailing;
  return out === '' ? '' : `${out}\n`;
}

/**
 * What goes between two blocks written one after the other: the items of a list, and footnotes,
 * go on consecutive lines; quoted paragraphs that follow each other are one quotation.
 */
function separator(previous: Block, next: Block): string {
  if (previous.written !== undefined) return '\n\n';
  if (previous.type === 'footnote' && next.type === 'footnote') return '\n';
  if (previous.type === 'paragraph' && previous.quote && next.type === 'paragraph' && next.quote) return '\n>\n';
  return previous.type === 'list_item' && next.type === 'list_item' ? '\n' : '\n\n';
}

/**
 * A block as Markdown; undefined for what the Markdown leaves out. `lists` places a list item
 * after the items written before it (a fresh layout: the item stands alone).
 */
export function blockMarkdown(block: Block, lists = new ListLayout()): string | undefined {
  switch (block.type) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${escapeHeadingText(oneLine(inlineMarkdown(block.content)))}`;
    case 'paragraph': {
      const text = paragraphText(block.content);
      return block.quote ? text.replace(/^/gm, '> ') : text;
    }
    case 'list_item':
      return listItemMarkdown(block, lists.place(block));
    case 'table':
      return tableMarkdown(block.rows.map((row) => row.map(gridCell)));
    case 'figure':
      return block.src === undefined ? escapeLineStart(block.alt) : `![${altText(block.alt)}](${block.src})`;
    case 'formula':
      return `$$${block.tex}$$`;
    case 'code': {
      const fence = '`'.repeat(Math.max(3, longestRun(block.text, '`') + 1));
      return `${fence}${block.language ?? ''}\n${block.text}\n${fence}`;
    }
    case 'footnote':
      return `[^${block.label}]: ${inlineMarkdown(block.content)}`;
    case 'transcript':
      return paragraphText(block.content);
    case 'furniture':
      return undefined;
    case 'separator':
      return '---';
    case 'raw':
      return block.text;
  }
}

/**
 * A list item at its place: the marker, then the content, whose further lines are indented to
 * the content's column; every line is kept from starting a block of its own.
 */
function listItemMarkdown(block: ListItemBlock, { indent, marker }: ListPlace): string {
  const task = block.checked === undefined ? '' : block.checked ? '[x] ' : '[ ] ';
  const content = ' '.repeat(indent + marker.length + 1);
  const [first, ...rest] = inlineMarkdown(block.content).split('\n');
  const lead = task ? `${task}${first}` : escapeLineStart(first);
  return [`${' '.repeat(indent)}${marker} ${lead}`, ...rest.map((line) => content + escapeLineStart(line))].join(
    '  \n',
  );
}

/** A paragraph's text: its inline Markdown, each line kept from starting a block; line breaks are hard breaks. */
function paragraphText(content: readonly Inline[]): string {
  return inlineMarkdown(content)
    .split('\n')
    .map((line) => escapeLineStart(line))
    .join('  \n');
}

/** Inline content as Markdown: emphasis, links, code spans, math, notes and pictures, text escaped; breaks as `\n`. */
export function inlineMarkdown(content: readonly Inline[]): string {
  // Links are told apart by their target: adjacent runs linking to the same address make one link.
  const links = new Map<string, number>();
  const linkId = (href: string) => links.get(href) ?? links.set(href, links.size + 1).size;
  const markdown = renderInline(content.map((inline) => piece(inline, linkId)));
  return markdown === ''
    ? ''
    : `${ideographicSpaces(content[0], /^\u3000+/)}${markdown}${ideographicSpaces(content.at(-1), /\u3000+$/)}`;
}

/**
 * The ideographic spaces (U+3000) at an edge of inline content when it is plain text there:
 * Markdown strips only spaces and tabs from a line, so it shows them (a CJK paragraph indent),
 * and `renderInline`'s trim would drop them.
 */
function ideographicSpaces(inline: Inline | undefined, edge: RegExp): string {
  if (inline?.kind !== 'text' || inline.bold || inline.italic || inline.strike || inline.code || inline.link) return '';
  return edge.exec(inline.text)?.[0] ?? '';
}

function piece(inline: Inline, linkId: (href: string) => number): Piece {
  switch (inline.kind) {
    case 'text': {
      const link = inline.link === undefined ? undefined : { id: linkId(inline.link), href: inline.link };
      if (inline.code) return { kind: 'raw', markdown: codeSpan(inline.text), link };
      return {
        kind: 'text',
        text: inline.text,
        bold: inline.bold === true,
        italic: inline.italic === true,
        strike: inline.strike === true,
        link,
      };
    }
    case 'break':
      return { kind: 'break' };
    case 'math':
      return { kind: 'raw', markdown: `$${inline.tex}$` };
    case 'note':
      return { kind: 'raw', markdown: `[^${inline.label}]` };
    case 'image':
      return { kind: 'raw', markdown: `![${altText(inline.alt)}](${inline.src})` };
  }
}

/** A code span that holds its text literally, however many backticks the text has. */
function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Alternative text inside `![…]`: brackets and line breaks would end it. */
function altText(alt: string): string {
  return alt.replace(/\s+/g, ' ').replace(/[[\]\\]/g, '\\$&');
}

/** A heading is one line: its breaks become spaces. */
function oneLine(text: string): string {
  return text.replace(/\n/g, ' ');
}

/** A model cell as the table writer's cell: its inline Markdown, breaks kept as line breaks (`<br>`). */
function gridCell(cell: Cell): GridCell {
  return { text: inlineMarkdown(cell.content), rowspan: cell.rowspan, colspan: cell.colspan };
}
