import {
  cellSlots,
  markdownBlocks,
  writeMarkdownSpans,
  type Block,
  type Document,
  type MarkdownBlock,
  type Provenance,
} from '@docconv/model';
import type { PlacedPage } from './placement';
import type { BlockPosition, ResultBlock, ResultCell } from './structured-result';

/**
 * The structured result's blocks of a file whose reader built a document: the blocks the Markdown
 * writer wrote, each where the writer put it in the job's Markdown and where the document says it
 * came from (page and box, no text matching), page furniture included without a span. A block's
 * type, text and details are those its own Markdown reads as (markdownBlocks), as for files
 * without a document. Undefined when the job's Markdown does not hold the document's as written
 * (a refined page changed it), or the document is Markdown read back: the caller reads the
 * Markdown instead.
 */
export function documentBlocks(
  markdown: string,
  source: { file: string; start: number; end: number; document: Document; pages?: PlacedPage[] },
  /** The file's blocks read from the job's Markdown: those before the document's (a heading naming the file) are kept. */
  own: MarkdownBlock[],
  span: (start: number, end: number) => [number, number],
  /** The OCR engine and confidence of a page read by OCR. */
  ocr: (page: number | undefined) => Pick<ResultBlock, 'engine' | 'confidence'>,
): ResultBlock[] | undefined {
  // A document read back from Markdown (an uploaded Markdown file) copies its blocks as written,
  // which the writer does not place: its blocks are read from the Markdown instead.
  if (source.document.blocks.some((block) => block.written !== undefined)) return undefined;
  const written = writeMarkdownSpans(source.document);
  const body = written.markdown.trim();
  const found = body === '' ? source.end : markdown.indexOf(body, source.start);
  if (found < 0 || found > source.end) return undefined;
  const offset = found - (written.markdown.length - written.markdown.trimStart().length);
  const out: ResultBlock[] = [];
  const opening = own.filter((block) => block.end <= found);
  // A file without pages says where each block stands by its provenance, or by its number among the file's blocks.
  const paged = source.pages !== undefined && source.pages.length > 0;
  let numbered = 0;
  const position = (from: Provenance | undefined): { position?: BlockPosition } =>
    paged ? {} : { position: positionOf(from, ++numbered) };
  if (opening.length > 0) {
    // The heading naming the file in a job of several is no part of the document: the band above its first block.
    const first = source.pages?.[0];
    const top = source.document.blocks.find((b) => b.from.page === first?.page && b.from.box)?.from.box?.[1];
    for (const block of opening) {
      out.push({
        ...markdownResultBlock(block, source.file, span),
        ...position(undefined),
        ...(first ? { page: first.page, box: [0, 0, first.width, top ?? first.height], box_estimated: true } : {}),
      });
    }
  }
  for (const { block, span: at } of written.blocks) {
    const place = {
      ...(block.from.page !== undefined ? { page: block.from.page } : {}),
      ...(block.from.page !== undefined && block.from.continues
        ? { pages: [block.from.page, ...block.from.continues] }
        : {}),
      ...(block.from.box !== undefined ? { box: block.from.box } : {}),
    };
    if (block.type === 'furniture') {
      // Written only when the job keeps its furniture (`shown`); else listed without a span.
      const type = block.role === 'header' ? 'page_header' : 'page_footer';
      const markdown = at === undefined ? null : span(offset + at[0], offset + at[1]);
      out.push({
        id: 0,
        type,
        text: block.text.trim(),
        markdown,
        file: source.file,
        ...position(block.from),
        ...place,
      });
      continue;
    }
    if (at === undefined) continue;
    const read = markdownBlocks(written.markdown.slice(at[0], at[1]))[0];
    if (read === undefined) continue;
    if (read.cells) read.cells = placedCells(read.cells, block);
    out.push({
      id: 0,
      type: read.type,
      text: read.text,
      markdown: span(offset + at[0], offset + at[1]),
      file: source.file,
      ...details(read),
      ...position(block.from),
      ...place,
      ...ocr(block.from.page),
    });
  }
  return out;
}

function positionOf(from: Provenance | undefined, paragraph: number): BlockPosition {
  if (from?.slide !== undefined) return { slide: from.slide };
  if (from?.sheet !== undefined) return { sheet: from.sheet };
  if (from?.seconds !== undefined) return { start_seconds: from.seconds[0] };
  return { paragraph };
}

/** A block of the job's Markdown as a block of `file`'s structured result: its type, text, span and details. */
export function markdownResultBlock(
  block: MarkdownBlock,
  file: string,
  span: (start: number, end: number) => [number, number],
): ResultBlock {
  return { id: 0, type: block.type, text: block.text, markdown: span(block.start, block.end), file, ...details(block) };
}

/** What a block of the Markdown says besides its type and text. */
function details(block: MarkdownBlock): Partial<ResultBlock> {
  const { level, cells, caption, image, language } = block;
  return {
    ...(level !== undefined ? { level } : {}),
    ...(cells ? { cells } : {}),
    ...(caption !== undefined ? { caption } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(language !== undefined ? { language } : {}),
  };
}

/**
 * The cells of a table read from its Markdown, each with its page and box when the document's
 * table gives them (a PDF's or an OCR'd page's): the document's cells are placed on the grid
 * their spans make and matched by row and column. Cells are given as read when the two grids
 * differ (a writer that cannot say a table's shape).
 */
function placedCells(cells: ResultCell[], block: Block): ResultCell[] {
  if (block.type !== 'table' || !block.rows.some((row) => row.some((cell) => cell.box))) return cells;
  const grid = new Map(cellSlots(block.rows).map(({ cell, row, column }) => [`${row}:${column}`, cell]));
  if (grid.size !== cells.length) return cells;
  return cells.map((cell) => {
    const own = grid.get(`${cell.row}:${cell.column}`);
    return own?.box ? { ...cell, ...(own.page !== undefined ? { page: own.page } : {}), box: own.box } : cell;
  });
}
