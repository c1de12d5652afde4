import type { FileKind } from '../kinds';
import type { PageReport } from '../ocr/ocr-page';
import { PAGE_FAILURES, type PageFailure } from '@docconv/contracts';
import { BLOCK_TYPES, markdownBlocks, type BlockType, type MarkdownBlock, type TableCell } from '@docconv/model';
import type { Document } from '@docconv/model';
import { documentBlocks, markdownResultBlock } from './document-blocks';
import { placeBlocks, type Box, type PlacedLine, type PlacedPage, type Placement } from './placement';

/** One file's stretch of the job's Markdown (`[start, end)`, UTF-16 units) and what its reading knew. */
export interface ResultSource {
  file: string;
  kind: FileKind;
  start: number;
  end: number;
  /** The part opens with a heading naming the file (a job of several files): not a slide or sheet of its own. */
  headed: boolean;
  /** PDF pages and image frames with their lines. */
  pages?: PlacedPage[];
  /**
   * The document the file's reader built (PDF): its blocks are placed by their provenance, at the
   * offsets the Markdown writer gave them, instead of by matching their text to the pages' lines.
   */
  document?: Document;
  reports?: PageReport[];
}

/** Where a block of a file without pages stands in that file. */
export interface BlockPosition {
  /** Presentations: the slide, from 1. */
  slide?: number;
  /** Spreadsheets: the sheet's name. */
  sheet?: string;
  /** Recordings: where the segment starts, in seconds. */
  start_seconds?: number;
  /** Other documents: the block's number among the file's blocks, from 1. */
  paragraph?: number;
}

/** A table's cell: its place in the grid, its text, and where it stands on its page when the reader laid the page out (PDF, OCR). */
export interface ResultCell extends TableCell {
  page?: number;
  box?: Box;
}

export interface ResultBlock {
  id: number;
  type: BlockType;
  text: string;
  /** `[start, end)` in result.md, in Unicode code points; null for page furniture the Markdown leaves out. */
  markdown: [number, number] | null;
  file: string;
  page?: number;
  /** A table that runs over pages: every page it stands on, its first (`page`) first. */
  pages?: number[];
  box?: Box;
  /** No line of the page carries the block's text: its box is the band between its neighbours. */
  box_estimated?: boolean;
  engine?: string;
  confidence?: number;
  position?: BlockPosition;
  level?: number;
  cells?: ResultCell[];
  caption?: string;
  image?: string;
  language?: string;
}

export interface ResultPage {
  file: string;
  page: number;
  /** Absent only for a page that was not read and whose size could not be known. */
  width?: number;
  height?: number;
  unit: 'pt' | 'px';
  source: PageReport['source'];
  /** A page that was not read (`source: failed`): why, by code and in a sentence; it is not charged. */
  failure?: PageFailure;
  reason?: string;
  engine?: string;
  confidence?: number;
  low_confidence?: boolean;
}

/** The structured result: the job's Markdown as typed blocks, each mapped to its place in result.md and in its file. */
export interface StructuredResult {
  version: 1;
  markdown: { file: 'result.md'; length: number; offsets: 'code_points' };
  files: { name: string; kind: FileKind; markdown: [number, number] }[];
  pages: ResultPage[];
  blocks: ResultBlock[];
}

const OCR_SOURCES = new Set<PageReport['source']>(['ocr', 'text+ocr']);

/** The structured result of `markdown`, whose files' stretches and pages are `sources`. */
export function structuredResult(markdown: string, sources: ResultSource[]): StructuredResult {
  const codePoint = codePointOffsets(markdown);
  const span = (start: number, end: number): [number, number] => [codePoint(start), codePoint(end)];
  const all = markdownBlocks(markdown);
  const blocks: ResultBlock[] = [];
  const pages: ResultPage[] = [];
  for (const source of sources) {
    const own = all.filter((block) => block.start >= source.start && block.start < source.end);
    const reports = new Map((source.reports ?? []).map((report) => [report.page, report]));
    const unit = source.kind === 'image' ? 'px' : 'pt';
    for (const page of source.pages ?? []) {
      const report = reports.get(page.page);
      pages.push({
        file: source.file,
        page: page.page,
        ...(page.width > 0 && page.height > 0 ? { width: page.width, height: page.height } : {}),
        unit,
        source: report?.source ?? 'text',
        ...(report?.source === 'failed'
          ? { failure: report.failure ?? 'unreadable', reason: report.notes?.[0] ?? 'The page could not be read.' }
          : {}),
        ...ocrFields(report),
        ...(report?.low_confidence ? { low_confidence: true } : {}),
      });
    }
    const base = (block: MarkdownBlock): ResultBlock => markdownResultBlock(block, source.file, span);
    const fromDocument =
      source.document &&
      documentBlocks(markdown, { ...source, document: source.document }, own, span, (page) =>
        ocrFields(page === undefined ? undefined : reports.get(page)),
      );
    if (fromDocument) {
      blocks.push(...fromDocument);
    } else if (source.pages && source.pages.length > 0) {
      // A figure is found by its link, which its page's line holds as written.
      const placements = placeBlocks(
        own.map((block) =>
          block.type === 'figure' && block.image ? markdown.slice(block.start, block.end) : block.text,
        ),
        source.pages,
      );
      const placed = own.map((block, i) => withPlacement(base(block), placements[i], reports));
      for (const block of withFurniture(placed, source.pages, source.file)) blocks.push(block);
    } else {
      const positions = positionsOf(own, source);
      own.forEach((block, i) => blocks.push({ ...base(block), position: positions[i] }));
    }
  }
  blocks.forEach((block, i) => (block.id = i));
  return {
    version: 1,
    markdown: { file: 'result.md', length: codePoint(markdown.length), offsets: 'code_points' },
    files: sources.map((source) => ({
      name: source.file,
      kind: source.kind,
      markdown: span(source.start, source.end),
    })),
    pages,
    blocks,
  };
}

function ocrFields(report: PageReport | undefined): { engine?: string; confidence?: number } {
  if (!report || !OCR_SOURCES.has(report.source)) return {};
  return {
    ...(report.engine ? { engine: report.engine } : {}),
    ...(report.confidence !== undefined ? { confidence: report.confidence } : {}),
  };
}

function withPlacement(block: ResultBlock, placement: Placement, reports: Map<number, PageReport>): ResultBlock {
  return {
    ...block,
    page: placement.page,
    box: placement.box,
    ...(placement.estimated ? { box_estimated: true } : {}),
    ...ocrFields(reports.get(placement.page)),
  };
}

/**
 * The page furniture the Markdown left out, as page_header and page_footer blocks: a page's
 * heads before its first block, its feet after its last.
 */
function withFurniture(blocks: ResultBlock[], pages: PlacedPage[], file: string): ResultBlock[] {
  const furniture = (page: PlacedPage, type: 'page_header' | 'page_footer'): ResultBlock[] =>
    page.furniture
      .filter((line: PlacedLine) => (line.box[1] + line.box[3]) / 2 < page.height / 2 === (type === 'page_header'))
      .map((line) => ({ id: 0, type, text: line.text.trim(), markdown: null, file, page: page.page, box: line.box }));
  const out: ResultBlock[] = [];
  let next = 0; // the next page whose furniture is not out yet
  const closePagesBefore = (pageNumber: number) => {
    while (next < pages.length && pages[next].page < pageNumber) {
      for (const line of [...furniture(pages[next], 'page_header'), ...furniture(pages[next], 'page_footer')])
        out.push(line);
      next++;
    }
  };
  let open: PlacedPage | undefined;
  for (const block of blocks) {
    if (open === undefined || block.page !== open.page) {
      if (open !== undefined) out.push(...furniture(open, 'page_footer'));
      closePagesBefore(block.page!);
      open = pages[next]?.page === block.page ? pages[next] : undefined;
      if (open) {
        out.push(...furniture(open, 'page_header'));
        next++;
      }
    }
    out.push(block);
  }
  if (open) out.push(...furniture(open, 'page_footer'));
  closePagesBefore(Number.POSITIVE_INFINITY);
  return out;
}

/** Slides, sheets, timestamps or block numbers, read from the structure of the file's Markdown. */
function positionsOf(blocks: MarkdownBlock[], source: ResultSource): BlockPosition[] {
  let slide = 0;
  let sheet: string | undefined;
  return blocks.map((block, i) => {
    const opensPart = source.headed && i === 0 && block.type === 'heading';
    switch (source.kind) {
      case 'pptx':
      case 'odp':
      case 'ppt':
        if (block.type === 'heading' && block.level === 2 && !opensPart) slide++;
        return { slide: Math.max(1, slide) };
      case 'xlsx':
      case 'ods':
      case 'xls':
      case 'csv':
      case 'tsv':
        if (block.type === 'heading' && block.level === 2 && !opensPart) sheet = block.text;
        return sheet === undefined ? { paragraph: i + 1 } : { sheet };
      case 'audio':
      case 'video': {
        const stamp = /^\[(?:(\d+):)?(\d{1,2}):(\d{2})\]/.exec(block.text);
        if (!stamp) return { paragraph: i + 1 };
        return { start_seconds: Number(stamp[1] ?? 0) * 3600 + Number(stamp[2]) * 60 + Number(stamp[3]) };
      }
      default:
        return { paragraph: i + 1 };
    }
  });
}

/** UTF-16 offsets of `text` to Unicode code point offsets. */
export function codePointOffsets(text: string): (utf16: number) => number {
  const lowSurrogates: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) lowSurrogates.push(i);
  }
  if (lowSurrogates.length === 0) return (utf16) => utf16;
  return (utf16) => {
    let lo = 0;
    let hi = lowSurrogates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lowSurrogates[mid] < utf16) lo = mid + 1;
      else hi = mid;
    }
    return utf16 - lo;
  };
}

/** JSON Schema pieces the structured result shares with the chunks that point into it. */
export const BOX_SCHEMA = { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 4, maxItems: 4 } as const;
export const SPAN_SCHEMA = { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 } as const;
export const POSITION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    slide: { type: 'integer', minimum: 1 },
    sheet: { type: 'string' },
    start_seconds: { type: 'number', minimum: 0 },
    paragraph: { type: 'integer', minimum: 1 },
  },
} as const;

/** The JSON Schema (2020-12) of `GET /jobs/{job_id}/download?format=json`. */
export const STRUCTURED_RESULT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'StructuredResult',
  description:
    "A finished job's Markdown as typed blocks in reading order. Each block's `markdown` is its [start, end) in the downloaded result.md, " +
    'counted in Unicode code points; PDF pages and images give each block a page and a box ([left, top, right, bottom] from the top-left ' +
    'corner, in points for PDFs and pixels for images); other files give its place in the file (slide, sheet, start in seconds, block number).',
  type: 'object',
  required: ['version', 'markdown', 'files', 'pages', 'blocks'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    markdown: {
      type: 'object',
      required: ['file', 'length', 'offsets'],
      additionalProperties: false,
      properties: {
        file: { const: 'result.md' },
        length: { type: 'integer', minimum: 0, description: 'result.md in Unicode code points' },
        offsets: { const: 'code_points' },
      },
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'kind', 'markdown'],
        additionalProperties: false,
        properties: { name: { type: 'string' }, kind: { type: 'string' }, markdown: SPAN_SCHEMA },
      },
    },
    pages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['file', 'page', 'unit', 'source'],
        additionalProperties: false,
        // A page that was read has its size; one that was not says why.
        if: { properties: { source: { const: 'failed' } }, required: ['source'] },
        then: { properties: { failure: true, reason: true }, required: ['failure', 'reason'] },
        else: { properties: { width: true, height: true }, required: ['width', 'height'] },
        properties: {
          file: { type: 'string' },
          page: { type: 'integer', minimum: 1 },
          width: { type: 'number', exclusiveMinimum: 0 },
          height: { type: 'number', exclusiveMinimum: 0 },
          unit: { enum: ['pt', 'px'] },
          source: { enum: ['text', 'ocr', 'text+ocr', 'failed'] },
          failure: { enum: [...PAGE_FAILURES] },
          reason: { type: 'string' },
          engine: { type: 'string' },
          confidence: { type: 'number', minimum: 0, maximum: 100 },
          low_confidence: { type: 'boolean' },
        },
      },
    },
    blocks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'text', 'markdown', 'file'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer', minimum: 0 },
          type: { enum: [...BLOCK_TYPES] },
          text: { type: 'string' },
          markdown: { oneOf: [SPAN_SCHEMA, { type: 'null' }] },
          file: { type: 'string' },
          page: { type: 'integer', minimum: 1 },
          pages: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 2 },
          box: BOX_SCHEMA,
          box_estimated: { type: 'boolean' },
          engine: { type: 'string' },
          confidence: { type: 'number', minimum: 0, maximum: 100 },
          position: POSITION_SCHEMA,
          level: { type: 'integer', minimum: 1, maximum: 6 },
          cells: {
            type: 'array',
            items: {
              type: 'object',
              required: ['row', 'column', 'rowspan', 'colspan', 'header', 'text'],
              additionalProperties: false,
              properties: {
                row: { type: 'integer', minimum: 0 },
                column: { type: 'integer', minimum: 0 },
                rowspan: { type: 'integer', minimum: 1 },
                colspan: { type: 'integer', minimum: 1 },
                header: { type: 'boolean' },
                text: { type: 'string' },
                page: { type: 'integer', minimum: 1 },
                box: BOX_SCHEMA,
              },
            },
          },
          caption: { type: 'string' },
          image: { type: 'string' },
          language: { type: 'string' },
        },
      },
    },
  },
} as const;
