import type { Block, Cell, Document, Inline, ListItemBlock } from '../document';
import { transcriptContent } from '../transcript';
import { escapeHeadingText, escapeLineStart, escapeText } from './escape';
import { renderInline, type Piece } from './inline';
import { ListLayout, type ListPlace } from './list-layout';
import { tableMarkdown, type GridCell } from './tables';

/**
 * The one Markdown writer: a document's blocks as CommonMark with GFM tables. Text is escaped
 * here and nowhere else, so what the page says is what a Markdown reader shows. Blocks are
 * separated by a blank line, the items of one list by a line break; page furniture is left
 * out unless it is `shown`. A block a reader not yet ported wrote as Markdown (`written`) is copied as it was.
 */
export function writeMarkdown(document: Document): string {
  return writeMarkdownSpans(document).markdown;
}

/** A block as written: where its Markdown stands in the output (`[start, end)`, UTF-16 units); no span when it was left out. */
export interface WrittenBlock {
  block: Block;
  span?: [number, number];
}

/**
 * writeMarkdown, with where each block stands in the Markdown (for the structured result); a
 * block the Markdown leaves out (page furniture) has no span, and one copied as a reader not yet
 * ported wrote it (`written`) is not listed.
 */
export function writeMarkdownSpans(document: Document): { markdown: string; blocks: WrittenBlock[] } {
  let out = '';
  let previous: Block | undefined;
  const lists = new ListLayout();
  const shown = shownNotes(document.blocks);
  const blocks: WrittenBlock[] = [];
  for (const block of document.blocks) {
    if (block.written !== undefined) {
      out += block.written;
      previous = block;
      lists.end();
      continue;
    }
    const markdown = blockMarkdown(block, lists, shown);
    if (markdown === undefined) {
      blocks.push({ block });
      continue;
    }
    if (block.type !== 'list_item') lists.end();
    if (previous !== undefined) out += separator(previous, block, shown);
    blocks.push({ block, span: [out.length, out.length + markdown.length] });
    out += markdown;
    previous = block;
  }
  if (document.trailing !== undefined) return { markdown: out + document.trailing, blocks };
  return { markdown: out === '' ? '' : `${out}\n`, blocks };
}

/**
 * What goes between two blocks written one after the other: the items of a list, and footnotes,
 * go on consecutive lines; quoted paragraphs that follow each other are one quotation.
 */
function separator(previous: Block, next: Block, shown?: ReadonlySet<string>): string {
  if (previous.written !== undefined) return '\n\n';
  // Definitions only: a note written as a paragraph (its label shown nowhere) stays a paragraph of its own.
  const definition = (block: Block) => block.type === 'footnote' && (shown === undefined || shown.has(block.label));
  if (definition(previous) && definition(next)) return '\n';
  if (previous.type === 'paragraph' && previous.quote && next.type === 'paragraph' && next.quote) return '\n>\n';
  return previous.type === 'list_item' && next.type === 'list_item' && next.opens !== true ? '\n' : '\n\n';
}

/**
 * A block as Markdown; undefined for what the Markdown leaves out. `lists` places a list item
 * after the items written before it (a fresh layout: the item stands alone). `shown` holds the
 * labels of the notes referenced where Markdown is read (shownNotes): a footnote none of them
 * names is written as a paragraph opened by its label, since a definition without a reference is
 * never shown.
 */
export function blockMarkdown(block: Block, lists = new ListLayout(), shown?: ReadonlySet<string>): string | undefined {
  switch (block.type) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${escapeHeadingText(oneLine(inlineMarkdown(block.content)))}`;
    case 'paragraph': {
      const text = paragraphText(block.content);
      return block.quote ? text.replace(/^/gm, '> ') : text;
    }
    case 'list_item':
      return listItemMarkdown(block, lists.place(block));
    case 'table': {
      // Inside an HTML table Markdown is not read: a note reference there is a superscript.
      const html = isHtmlTable(block.rows);
      const markdown = tableMarkdown(gridRowsOf(block.rows, html));
      return html ? markdown.replace(HTML_NOTE, '<sup>$1</sup>') : markdown;
    }
    case 'figure':
      // A picture not stored beside the result is its alternative text, which is plain text like any other.
      return block.src === undefined
        ? escapeLineStart(escapeText(block.alt))
        : `![${altText(block.alt)}](${block.src})`;
    case 'formula':
      return `$$${block.tex}$$`;
    case 'code': {
      const fence = '`'.repeat(Math.max(3, longestRun(block.text, '`') + 1));
      return `${fence}${block.language ?? ''}\n${block.text}\n${fence}`;
    }
    case 'footnote':
      return shown === undefined || shown.has(block.label)
        ? `[^${block.label}]: ${inlineMarkdown(block.content)}`
        : `<sup>${block.label}</sup> ${inlineMarkdown(block.content)}`;
    case 'transcript':
      return paragraphText(transcriptContent(block));
    case 'furniture':
      return block.shown ? escapeLineStart(escapeText(block.text.trim())) : undefined;
    case 'separator':
      return '---';
    case 'comment':
      // A comment ends at its first `--`: a run of hyphens is a dash; the text stays on one line.
      return `<!-- ${block.text.replace(/--+>?/g, '—').replace(/\s*\n\s*/g, ' ')} -->`;
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

/**
 * Inline content as Markdown: emphasis, links, code spans, math, notes and pictures, text escaped;
 * breaks as `\n`. In an HTML table (`html`) a note is a stand-in the table's writer makes a superscript.
 */
export function inlineMarkdown(content: readonly Inline[], html = false): string {
  // Links are told apart by their target: adjacent runs linking to the same address make one link.
  const links = new Map<string, number>();
  const linkId = (href: string) => links.get(href) ?? links.set(href, links.size + 1).size;
  const markdown = renderInline(content.map((inline) => piece(inline, linkId, html)));
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

/** A note reference in an HTML table's cell until the table is written (private-use characters). */
const htmlNote = (label: string) => `\uE0F4${label}\uE0F5`;
const HTML_NOTE = /\uE0F4([^\uE0F5]*)\uE0F5/g;

/** A table the writer writes as HTML: one whose cells span or hold a table (GFM has neither). */
function isHtmlTable(rows: readonly Cell[][]): boolean {
  return rows.some((row) =>
    row.some((cell) => cell.rowspan > 1 || cell.colspan > 1 || (cell.blocks ?? []).some((b) => b.type === 'table')),
  );
}

/**
 * The labels of the notes referenced where Markdown is read: anywhere but in an HTML table. A
 * document with blocks written by a reader not yet ported says nothing of its notes: every label counts.
 */
function shownNotes(blocks: readonly Block[]): ReadonlySet<string> | undefined {
  if (blocks.some((block) => block.written !== undefined)) return undefined;
  const shown = new Set<string>();
  const add = (content: readonly Inline[] | undefined) => {
    for (const inline of content ?? []) if (inline.kind === 'note') shown.add(inline.label);
  };
  for (const block of blocks) {
    if ('content' in block) add(block.content);
    if (block.type === 'table') {
      add(block.caption);
      if (!isHtmlTable(block.rows)) for (const row of block.rows) for (const cell of row) add(cell.content);
    }
  }
  return shown;
}

function piece(inline: Inline, linkId: (href: string) => number, html: boolean): Piece {
  switch (inline.kind) {
    case 'text': {
      const link = pieceLink(inline.link, linkId);
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
      return { kind: 'raw', markdown: html ? htmlNote(inline.label) : `[^${inline.label}]` };
    case 'image':
      return {
        kind: 'raw',
        markdown: `![${altText(inline.alt)}](${inline.src})`,
        link: pieceLink(inline.link, linkId),
      };
  }
}

/** The link a piece belongs to, numbered by `linkId` so that pieces of one link stay one. */
function pieceLink(href: string | undefined, linkId: (href: string) => number): Piece['link'] {
  return href === undefined ? undefined : { id: linkId(href), href };
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

/**
 * A model table's rows as the table writer's cells: each cell's inline Markdown, breaks kept as
 * line breaks (`<br>`), and the tables nested in it (its other blocks are not written). In a
 * table written as HTML (`html`), nested ones included, a note reference is the stand-in the
 * writer makes a superscript.
 */
function gridRowsOf(rows: readonly Cell[][], html: boolean): GridCell[][] {
  return rows.map((row) =>
    row.map((cell) => {
      const tables = (cell.blocks ?? []).flatMap((b) => (b.type === 'table' ? [gridRowsOf(b.rows, true)] : []));
      const text = inlineMarkdown(cell.content, html);
      return { text, rowspan: cell.rowspan, colspan: cell.colspan, ...(tables.length > 0 ? { tables } : {}) };
    }),
  );
}
