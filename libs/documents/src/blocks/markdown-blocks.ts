import type { Nodes, Parent, Root, RootContent, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

export const BLOCK_TYPES = [
  'heading',
  'paragraph',
  'list_item',
  'table',
  'figure',
  'code',
  'formula',
  'footnote',
  'quote',
  'separator',
  'html',
  'page_header',
  'page_footer',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export interface TableCell {
  row: number;
  column: number;
  rowspan: number;
  colspan: number;
  header: boolean;
  text: string;
}

/** A block of the Markdown: its kind, its plain text and where it stands (`[start, end)`, UTF-16 units). */
export interface MarkdownBlock {
  type: BlockType;
  text: string;
  start: number;
  end: number;
  /** Headings: 1…6. */
  level?: number;
  /** Tables: every cell, with its row and column (from 0) and spans. */
  cells?: TableCell[];
  /** Figures: the picture's alternative text, and where it points. */
  caption?: string;
  image?: string;
  /** Code: the fence's language, when it names one. */
  language?: string;
}

/**
 * The Markdown cut into the blocks a reader sees, in order: headings, paragraphs, each list item
 * (a nested list's items are blocks of their own), tables with their cells, figures, code,
 * formulas (`$$…$$`), footnotes, quotes, separators and raw HTML. The spans of the blocks cover
 * all of the Markdown but the blank lines between them.
 */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const tree: Root = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  const blocks: MarkdownBlock[] = [];
  for (const node of tree.children) collect(node, markdown, blocks);
  return blocks;
}

function collect(node: RootContent, markdown: string, out: MarkdownBlock[]): void {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return;
  const block = (type: BlockType, extra: Partial<MarkdownBlock> = {}, text = plainText(node)): void => {
    out.push({ type, text: text.replace(/ {2,}/g, ' ').trim(), start, end, ...extra });
  };
  switch (node.type) {
    case 'heading':
      return block('heading', { level: node.depth });
    case 'paragraph': {
      const only = node.children.length === 1 ? node.children[0] : undefined;
      if (only?.type === 'image') return block('figure', { caption: only.alt ?? '', image: only.url });
      const source = markdown.slice(start, end).trim();
      if (/^\$\$[\s\S]*\$\$$/.test(source)) return block('formula', {}, source.replace(/^\$\$|\$\$$/g, ''));
      return block('paragraph');
    }
    case 'list':
      for (const item of node.children) {
        const itemStart = item.position?.start.offset;
        if (itemStart === undefined) continue;
        const nested = item.children.filter((child) => child.type === 'list');
        const own = item.children.filter((child) => child.type !== 'list');
        const ownEnd = nested[0]?.position?.start.offset ?? item.position!.end.offset!;
        out.push({
          type: 'list_item',
          text: own.map(plainText).join('\n').trim(),
          start: itemStart,
          end: trimmedEnd(markdown, itemStart, ownEnd),
        });
        for (const list of nested) collect(list, markdown, out);
      }
      return;
    case 'table':
      return block('table', { cells: tableCells(node) });
    case 'code':
      return block('code', node.lang ? { language: node.lang } : {});
    case 'math' as string:
      return block('formula');
    case 'blockquote':
      return block('quote');
    case 'thematicBreak':
      return block('separator', {}, '');
    case 'footnoteDefinition':
      return block('footnote');
    case 'html': {
      const cells = htmlTableCells(node.value);
      if (cells) return block('table', { cells }, cells.map((cell) => cell.text).join(' '));
      const image = /<!--\s*image(?::\s*([\s\S]*?))?\s*-->/.exec(node.value);
      if (image) return block('figure', { caption: (image[1] ?? '').trim() }, (image[1] ?? '').trim());
      return block('html', {}, node.value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' '));
    }
    case 'definition':
      return block('paragraph', {}, node.url);
    default:
      return block('paragraph');
  }
}

function trimmedEnd(markdown: string, start: number, end: number): number {
  let at = end;
  while (at > start && /\s/.test(markdown[at - 1])) at--;
  return at;
}

/** The text a reader reads in a node: no markup, link targets or image sources; an image counts by its alternative text. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'html':
      return node.value.replace(/<[^>]*>/g, ' ');
    case 'image':
      return ` ${node.alt ?? ''} `;
    case 'break':
      return '\n';
    case 'table':
      return tableCells(node)
        .map((cell) => cell.text)
        .join(' ');
    default: {
      const parent = node as Parent;
      if (!Array.isArray(parent.children)) return '';
      const blockLevel = node.type === 'root' || node.type === 'blockquote' || node.type === 'listItem';
      return parent.children.map((child) => plainText(child as Nodes)).join(blockLevel ? '\n' : '');
    }
  }
}

function tableCells(table: Table): TableCell[] {
  return table.children.flatMap((row, r) =>
    row.children.map((cell, c) => ({
      row: r,
      column: c,
      rowspan: 1,
      colspan: 1,
      header: r === 0,
      text: plainText(cell).trim(),
    })),
  );
}

/**
 * The cells of an HTML table (what the Markdown uses for tables with merged cells), placed on
 * the grid their spans make; undefined when the HTML is not a table.
 */
export function htmlTableCells(html: string): TableCell[] | undefined {
  if (!/^\s*<table[\s>]/i.test(html)) return undefined;
  const cells: TableCell[] = [];
  const taken = new Set<string>();
  const rows = html.match(/<tr[\s>][\s\S]*?<\/tr>/gi) ?? [];
  for (const [r, row] of rows.entries()) {
    let column = 0;
    for (const match of row.matchAll(/<(td|th)([^>]*)>([\s\S]*?)<\/\1>/gi)) {
      while (taken.has(`${r}:${column}`)) column++;
      const span = (name: string) =>
        Math.max(1, Number(new RegExp(`${name}\\s*=\\s*"?(\\d+)`, 'i').exec(match[2])?.[1] ?? 1));
      const rowspan = span('rowspan');
      const colspan = span('colspan');
      for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < colspan; dc++) taken.add(`${r + dr}:${column + dc}`);
      cells.push({
        row: r,
        column,
        rowspan,
        colspan,
        header: match[1].toLowerCase() === 'th',
        text: decodeEntities(match[3].replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ' '))
          .replace(/[ \t]+/g, ' ')
          .trim(),
      });
      column += colspan;
    }
  }
  return cells;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) =>
    name === 'amp'
      ? '&'
      : name === 'lt'
        ? '<'
        : name === 'gt'
          ? '>'
          : name === 'quot'
            ? '"'
            : name === '#39'
              ? "'"
              : ' ',
  );
}
