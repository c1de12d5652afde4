import type { PhrasingContent, RootContent } from 'mdast';
import type { Block, Cell, Document, Inline, Provenance } from '../document';
import { escapeLineStart } from './escape';
import { gfmCells, markdownBlocks, type MarkdownBlock, type TableCell } from './markdown-blocks';
import { inlineRuns, parseMarkdown, type InlineRun } from './parse-markdown';

/**
 * Markdown turned into the model once: a Markdown upload, pages a language model refined, and
 * jobs stored before `document.json` existed. The blocks are those the structured result has always
 * cut (`markdownBlocks`); each keeps its Markdown as written (`written`, separating blank lines
 * included), so `writeMarkdown(readMarkdown(m))` is `m` byte for byte, and its content is read
 * with a CommonMark parser into inline runs (bold, italic, struck, code, links, pictures), which
 * the office writers and the structured result use.
 */
/**
 * The largest Markdown read back into the model while a job is stored (a Markdown upload, a part
 * no reader built a document for): reading parses every block with markup, about a second a
 * megabyte, so a larger one is stored without a document and read back only if a conversion
 * asks for it.
 */
export const MAX_READ_BACK_BYTES = 8 * 1024 * 1024;

export function readMarkdown(markdown: string, file: string): Document {
  const from: Provenance = { file };
  const blocks: Block[] = [];
  let cursor = 0;
  for (const source of markdownBlocks(markdown)) {
    const written = markdown.slice(cursor, source.end);
    cursor = source.end;
    blocks.push({ ...modelBlock(source, markdown.slice(source.start, source.end)), from, written });
  }
  return { version: 1, blocks, trailing: markdown.slice(cursor) };
}

/** A block before its provenance and source are set (each kind of block without those two fields). */
type Content = Block extends infer B ? (B extends Block ? Omit<B, 'from' | 'written'> : never) : never;

/** A block of the splitter as a model block, its content read from its Markdown `text`. */
function modelBlock(block: MarkdownBlock, text: string): Content {
  switch (block.type) {
    case 'heading':
      return {
        type: 'heading',
        level: block.level ?? 1,
        // Without its opening and closing sequences (`## Title ##`).
        content: inline(text.replace(/^\s*#+[ \t]*/, '').replace(/[ \t]+#+[ \t]*$/, '')),
      };
    case 'paragraph':
      return { type: 'paragraph', content: inline(text) };
    case 'quote':
      return { type: 'paragraph', quote: true, content: inline(text.replace(/^ {0,3}> ?/gm, '')) };
    case 'list_item':
      return listItem(text);
    case 'footnote': {
      const label = /^\s*\[\^([^\]]+)\]:/.exec(text)?.[1] ?? '';
      return { type: 'footnote', label, content: inline(text.replace(/^\s*\[\^[^\]]+\]:[ \t]*/, '')) };
    }
    case 'table':
      return table(block, text);
    case 'figure':
      return { type: 'figure', alt: block.caption ?? '', ...(block.image ? { src: block.image } : {}) };
    case 'code':
      return { type: 'code', text: block.text, ...(block.language ? { language: block.language } : {}) };
    case 'formula':
      return { type: 'formula', tex: block.text };
    case 'separator':
      return { type: 'separator' };
    case 'html':
      return { type: 'raw', text };
    case 'page_header':
    case 'page_footer':
      return { type: 'furniture', role: block.type === 'page_header' ? 'header' : 'footer', text: block.text };
  }
}

const LIST_MARKER = /^([ \t]*)([-*+]|(\d{1,9})[.)])[ \t]+(?:\[([ xX])\][ \t]+)?/;

/** A list item: its depth from its indent (two spaces a level), its number, its box, its text. */
function listItem(text: string): Content {
  const marker = LIST_MARKER.exec(text);
  const indent = marker?.[1].replace(/\t/g, '    ').length ?? 0;
  const body = text
    .slice(marker?.[0].length ?? 0)
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.trim()))
    .join('\n');
  return {
    type: 'list_item',
    depth: Math.floor(indent / 2),
    ...(marker?.[3] !== undefined ? { number: Number(marker[3]) } : {}),
    ...(marker?.[4] !== undefined ? { checked: marker[4] !== ' ' } : {}),
    content: inline(body),
  };
}

/**
 * A GFM table's cells with their inline runs (only a cell with markup is parsed: a large table of
 * plain cells costs no parser); an HTML table's cells (with spans) as the splitter read them.
 */
function table(block: MarkdownBlock, text: string): Content {
  const lines = text.split('\n');
  if (lines.length < 2 || !/^\s*\|?\s*:?-/.test(lines[1])) return { type: 'table', ...htmlRows(block.cells ?? []) };
  const header = gfmCells(lines[0]);
  const rows = [header, ...lines.slice(2).map(gfmCells)].map((cells) =>
    Array.from({ length: header.length }, (_, i): Cell => ({
      content: cellContent(cells[i] ?? ''),
      rowspan: 1,
      colspan: 1,
    })),
  );
  return { type: 'table', rows, headerRows: 1 };
}

/** A cell's inline Markdown as runs; a cell is never a block, so what would start one (`1.`, `-`, `#`) is read as text. */
function cellContent(markdown: string): Inline[] {
  return MARKUP.test(markdown) ? inline(escapeLineStart(markdown)) : plainContent(markdown);
}

function htmlRows(cells: TableCell[]): { rows: Cell[][]; headerRows: number } {
  const rows: Cell[][] = [];
  const header: boolean[] = [];
  for (const cell of cells) {
    while (rows.length <= cell.row) {
      rows.push([]);
      header.push(true);
    }
    rows[cell.row].push({ content: plainContent(cell.text), rowspan: cell.rowspan, colspan: cell.colspan });
    header[cell.row] &&= cell.header;
  }
  const headerRows = header.findIndex((isHeader) => !isHeader);
  return { rows, headerRows: headerRows < 0 ? rows.length : headerRows };
}

/**
 * What may make inline Markdown more than its text: emphasis, code, links, pictures, escapes,
 * entities, HTML, hard breaks, math. Text without any is its own content, line for line (a
 * CommonMark parser costs milliseconds a paragraph).
 */
const MARKUP = /[*_~`[\]\\$]|!\[|<[A-Za-z/!?]|&(?:#|[A-Za-z]+;)|https?:|www\.|@| {2}\n/;

/** Inline Markdown as runs: the phrasing of the paragraphs and headings it parses to, joined by line breaks. */
function inline(markdown: string): Inline[] {
  if (!MARKUP.test(markdown)) return plainContent(markdown.trim().replace(/[ \t]*\n[ \t]*/g, '\n'));
  const out: Inline[] = [];
  const visit = (nodes: RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'paragraph' || node.type === 'heading') {
        if (out.length > 0) out.push({ kind: 'break' });
        out.push(...runs(node.children));
      } else if ('children' in node) visit(node.children);
    }
  };
  visit(parseMarkdown(markdown).children);
  return out;
}

/** Phrasing content as model inlines. */
function runs(nodes: PhrasingContent[]): Inline[] {
  return inlineRuns(nodes).flatMap(modelInline);
}

function modelInline(run: InlineRun): Inline[] {
  if (run.image) {
    return [
      { kind: 'image', src: run.image.src, alt: run.image.alt, ...(run.link !== null ? { link: run.link } : {}) },
    ];
  }
  return run.text.split('\n').flatMap((text, i): Inline[] => {
    const pieces: Inline[] = i > 0 ? [{ kind: 'break' }] : [];
    if (text === '') return pieces;
    return [
      ...pieces,
      {
        kind: 'text',
        text,
        ...(run.bold ? { bold: true } : {}),
        ...(run.italic ? { italic: true } : {}),
        ...(run.strike ? { strike: true } : {}),
        ...(run.code ? { code: true } : {}),
        ...(run.link !== null ? { link: run.link } : {}),
      },
    ];
  });
}

function plainContent(text: string): Inline[] {
  return text
    .split('\n')
    .flatMap((line, i): Inline[] => [
      ...(i > 0 ? [{ kind: 'break' } as const] : []),
      ...(line === '' ? [] : [{ kind: 'text', text: line } as const]),
    ]);
}
