import type { Box } from '../blocks/placement';
import type { BlockPosition, ResultBlock, StructuredResult } from '../blocks/structured-result';
import { tableRows } from './table-rows';
import { countTokens } from './tokens';

/**
 * How a result is cut into chunks. `structure`: a heading opens a chunk, and blocks are packed
 * up to the limit in reading order. `page`: one chunk per page (a PDF page or image frame, a
 * slide, a sheet; a file without pages is one page), each cut the same way when it is over the
 * limit. Neither ever joins two files.
 */
export const CHUNK_STRATEGIES = ['structure', 'page'] as const;
export type ChunkStrategy = (typeof CHUNK_STRATEGIES)[number];

export interface ChunkOptions {
  strategy: ChunkStrategy;
  /** No chunk's text is more tokens than this. */
  maxTokens: number;
  /** At most this many tokens of the chunk before, repeated at the start of the next one of the same section or page. */
  overlapTokens: number;
}

/** Where a block of a chunk stands in its file, as the structured result says. */
export interface ChunkBlock {
  /** The block's `id` in the structured result. */
  id: number;
  page?: number;
  /** A table over several pages: every page it stands on. */
  pages?: number[];
  box?: Box;
  position?: BlockPosition;
  /** Only part of the block is in this chunk: it is too long for one (a long table, paragraph or code block). */
  partial?: true;
}

export interface Chunk {
  /** From 0, in reading order. */
  index: number;
  /**
   * The chunk's Markdown: result.md's `markdown` stretch, except that a table continued from the
   * chunk before is led by its header rows again, and an HTML table cut after it is closed.
   */
  text: string;
  tokens: number;
  /** The job's file it comes from. */
  file: string;
  /** The headings in force where it starts, outermost first (its own leading headings included). */
  heading_path: string[];
  /** `[start, end)` in result.md, in Unicode code points, as the structured result's offsets. */
  markdown: [number, number];
  /** The start of `markdown` that repeats the end of the chunk before (`overlap_tokens`): its stretch and blocks. */
  overlap?: { markdown: [number, number]; blocks: number[] };
  /** The blocks it holds (after the overlap), in reading order. */
  blocks: ChunkBlock[];
  /** The pages its blocks stand on, for files with pages. */
  pages?: number[];
}

/** A stretch of the Markdown that is never cut: a block, or part of one too long for a chunk. */
interface Unit {
  start: number;
  end: number;
  tokens: number;
  block: ResultBlock;
  partial: boolean;
  /** A table's rows: how to make them a table again when a chunk starts or stops among them. */
  table?: { header: string; headerTokens: number; closeTokens: number; html: boolean; first: boolean; last: boolean };
}

/** Tokens an estimate adds for what joins two blocks (a blank line is one token); parts of one block join with a space, which the next word's token takes. */
const JOIN_TOKENS = 1;
const HTML_CLOSE = '\n</table>';

/** The chunks of a job's result (`markdown` is result.md, `result` its structured result). */
export function chunkResult(markdown: string, result: StructuredResult, options: ChunkOptions): Chunk[] {
  const offsets = new Offsets(markdown);
  const chunks: Chunk[] = [];
  const paths = headingPaths(result.blocks);
  for (const group of groups(result.blocks, options.strategy)) {
    const units = group.flatMap((block) => unitsOf(markdown, offsets, block, options.maxTokens));
    for (const own of pack(markdown, units, options)) {
      const overlap = own.overlap;
      const all = [...overlap, ...own.units];
      const first = own.units[0].block;
      const content = own.units.find((unit) => unit.block.type !== 'heading') ?? own.units[own.units.length - 1];
      chunks.push({
        index: chunks.length,
        text: textOf(markdown, all),
        tokens: own.tokens,
        file: first.file,
        heading_path: paths.get(content.block) ?? [],
        markdown: [offsets.codePoint(all[0].start), offsets.codePoint(all[all.length - 1].end)],
        ...(overlap.length > 0
          ? {
              overlap: {
                markdown: [offsets.codePoint(overlap[0].start), offsets.codePoint(own.units[0].start)],
                blocks: distinct(overlap.map((unit) => unit.block.id)),
              },
            }
          : {}),
        ...placesOf(own.units),
      });
    }
  }
  return chunks;
}

/** The blocks that chunks hold, split where a chunk must start: at each file, and at headings or pages. */
function groups(blocks: readonly ResultBlock[], strategy: ChunkStrategy): ResultBlock[][] {
  const out: ResultBlock[][] = [];
  let key: string | undefined;
  for (const block of blocks) {
    if (block.markdown === null) continue; // page furniture left out of the Markdown
    const current = out[out.length - 1];
    const next =
      strategy === 'page'
        ? `${block.file}\u0000${block.page ?? block.position?.slide ?? block.position?.sheet ?? ''}`
        : block.file;
    const opens =
      current === undefined ||
      next !== key ||
      (strategy === 'structure' && block.type === 'heading' && current.some((b) => b.type !== 'heading'));
    if (opens) out.push([block]);
    else current.push(block);
    key = next;
  }
  return out;
}

/** For each block, the text of the headings above it (and of itself, when it is one), outermost first. */
function headingPaths(blocks: readonly ResultBlock[]): Map<ResultBlock, string[]> {
  const paths = new Map<ResultBlock, string[]>();
  let stack: { level: number; text: string }[] = [];
  let file: string | undefined;
  for (const block of blocks) {
    if (block.file !== file) stack = [];
    file = block.file;
    if (block.type === 'heading') {
      const level = block.level ?? 1;
      stack = [...stack.filter((heading) => heading.level < level), { level, text: block.text.trim() }];
    }
    paths.set(
      block,
      stack.map((heading) => heading.text),
    );
  }
  return paths;
}

/** A block as units no longer than `limit` tokens: itself when it fits; else its row groups (tables) or lines, sentences, words. */
function unitsOf(markdown: string, offsets: Offsets, block: ResultBlock, limit: number): Unit[] {
  const [start, end] = [offsets.unit(block.markdown![0]), offsets.unit(block.markdown![1])];
  const tokens = countTokens(markdown.slice(start, end));
  if (tokens <= limit) return [{ start, end, tokens, block, partial: false }];
  if (block.type === 'table') {
    const rows = tableRows(markdown.slice(start, end), block.cells);
    if (rows) {
      const header = markdown.slice(start + rows.header[0], start + rows.header[1]);
      const headerTokens = countTokens(header) + JOIN_TOKENS;
      const closeTokens = rows.html ? countTokens(HTML_CLOSE) : 0;
      return rows.groups.flatMap(([from, to], i) => {
        const last = i === rows.groups.length - 1;
        const table = { header, headerTokens, closeTokens, html: rows.html, first: i === 0, last };
        // A group that does not fit beside the header is cut as text: the one place a row is cut.
        const room = limit - (i === 0 ? 0 : headerTokens) - (last ? 0 : closeTokens);
        return pieces(markdown, start + from, start + to, room).map((piece, _, all) => ({
          ...piece,
          block,
          partial: true,
          ...(all.length === 1 ? { table } : {}),
        }));
      });
    }
  }
  return pieces(markdown, start, end, limit).map((piece) => ({ ...piece, block, partial: true }));
}

const SENTENCES = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Where text may be cut when it must be, coarsest first: after line breaks, between sentences, after spaces. */
const CUTS: ((text: string) => number[])[] = [
  (text) => boundaries(text, /\n/g),
  (text) => [...SENTENCES.segment(text)].map((segment) => segment.index),
  (text) => boundaries(text, /\s+/g),
];

type Piece = { start: number; end: number; tokens: number };

/**
 * `[start, end)` as stretches of at most `limit` tokens each, cut at the coarsest boundaries that
 * make them fit (a word longer than the limit at the longest prefix that fits), without the
 * spaces around a cut. Chunks pack them again, so a cut falls only where a chunk ends.
 */
function pieces(markdown: string, start: number, end: number, limit: number, level = 0): Piece[] {
  const tokens = countTokens(markdown.slice(start, end));
  if (tokens <= limit) return [{ start, end, tokens }];
  if (level >= CUTS.length) return prefixes(markdown, start, end, limit);
  const cuts = CUTS[level](markdown.slice(start, end)).filter((at) => at > 0 && at < end - start);
  const edges = [start, ...cuts.map((at) => start + at), end];
  const out: Piece[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    let [from, to] = [edges[i], edges[i + 1]];
    while (from < to && /\s/.test(markdown[from])) from++;
    while (to > from && /\s/.test(markdown[to - 1])) to--;
    if (from < to) out.push(...pieces(markdown, from, to, limit, level + 1));
  }
  return out;
}

/** Text with no place to cut (a long word, a run of symbols) as the longest prefixes that fit, never inside a character. */
function prefixes(markdown: string, start: number, end: number, limit: number): Piece[] {
  const out: Piece[] = [];
  let from = start;
  while (from < end) {
    let [low, high] = [from + 1, end]; // the longest end in [low, high] that fits
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (countTokens(markdown.slice(from, middle)) <= limit) low = middle;
      else high = middle - 1;
    }
    let to = low;
    if (to < end && isLowSurrogate(markdown.charCodeAt(to))) to = to - 1 > from ? to - 1 : to + 1;
    out.push({ start: from, end: to, tokens: countTokens(markdown.slice(from, to)) });
    from = to;
  }
  return out;
}

function boundaries(text: string, separator: RegExp): number[] {
  return [...text.matchAll(separator)].map((match) => match.index + match[0].length);
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

interface Packed {
  overlap: Unit[];
  units: Unit[];
  tokens: number;
}

/**
 * A group's units packed into chunks in order, each as many as fit in `maxTokens` after the
 * overlap repeated from the chunk before (dropped when the next unit would not fit beside it).
 * Estimates choose; the chunk's exact count decides, handing its last unit on while it is over.
 */
function pack(markdown: string, units: Unit[], options: ChunkOptions): Packed[] {
  const limit = options.maxTokens;
  const out: Packed[] = [];
  let i = 0;
  while (i < units.length) {
    const before = out[out.length - 1];
    let overlap = before ? overlapOf(markdown, [...before.overlap, ...before.units], options.overlapTokens) : [];
    if (estimate([...overlap, units[i]]) > limit) overlap = [];
    const taken: Unit[] = [units[i]];
    while (i + taken.length < units.length && estimate([...overlap, ...taken, units[i + taken.length]]) <= limit)
      taken.push(units[i + taken.length]);
    let tokens = countTokens(textOf(markdown, [...overlap, ...taken]));
    while (tokens > limit && (taken.length > 1 || overlap.length > 0)) {
      if (taken.length > 1) taken.pop();
      else overlap = [];
      tokens = countTokens(textOf(markdown, [...overlap, ...taken]));
    }
    out.push({ overlap, units: taken, tokens });
    i += taken.length;
  }
  return out;
}

/** An upper bound, near enough, of the tokens of the chunk `units` make. */
function estimate(units: Unit[]): number {
  const first = units[0].table;
  const last = units[units.length - 1].table;
  return (
    units.reduce(
      (sum, unit, i) => sum + unit.tokens + (i > 0 && units[i - 1].block !== unit.block ? JOIN_TOKENS : 0),
      0,
    ) +
    (first && !first.first ? first.headerTokens : 0) +
    (last && !last.last ? last.closeTokens : 0)
  );
}

/** The trailing units of the chunk before whose Markdown is at most `budget` tokens. */
function overlapOf(markdown: string, previous: Unit[], budget: number): Unit[] {
  let first = previous.length;
  let tokens = 0;
  while (first > 0) {
    const unit = previous[first - 1];
    tokens += unit.tokens + (first < previous.length && previous[first].block !== unit.block ? JOIN_TOKENS : 0);
    if (tokens > budget) break;
    first--;
  }
  const end = previous[previous.length - 1]?.end;
  while (first < previous.length && countTokens(markdown.slice(previous[first].start, end)) > budget) first++;
  return previous.slice(first);
}

/** The Markdown of consecutive units: their stretch, led by a continued table's header, an HTML table closed. */
function textOf(markdown: string, units: Unit[]): string {
  const first = units[0];
  const last = units[units.length - 1];
  const lead = first.table && !first.table.first ? `${first.table.header}\n` : '';
  const close = last.table && !last.table.last && last.table.html ? HTML_CLOSE : '';
  return lead + markdown.slice(first.start, last.end) + close;
}

/** The blocks of a chunk's units with their places, and the pages they stand on. */
function placesOf(units: Unit[]): Pick<Chunk, 'blocks' | 'pages'> {
  const blocks: ChunkBlock[] = [];
  for (const unit of units) {
    const { id, page, pages, box, position } = unit.block;
    if (blocks[blocks.length - 1]?.id === id) continue;
    blocks.push({
      id,
      ...(page !== undefined ? { page } : {}),
      ...(pages !== undefined ? { pages } : {}),
      ...(box !== undefined ? { box } : {}),
      ...(position !== undefined ? { position } : {}),
      ...(unit.partial ? { partial: true as const } : {}),
    });
  }
  const pages = distinct(blocks.flatMap((block) => block.pages ?? (block.page !== undefined ? [block.page] : []))).sort(
    (a, b) => a - b,
  );
  return { blocks, ...(pages.length > 0 ? { pages } : {}) };
}

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Offsets in result.md both ways: UTF-16 units (JavaScript strings) and code points (the structured result's). */
class Offsets {
  private readonly codePoints: Int32Array;
  private readonly units: Int32Array;

  constructor(markdown: string) {
    this.codePoints = new Int32Array(markdown.length + 1);
    const units: number[] = [];
    let point = 0;
    for (let i = 0; i < markdown.length; i++) {
      this.codePoints[i] = point;
      if (!isLowSurrogate(markdown.charCodeAt(i))) {
        units.push(i);
        point++;
      }
    }
    this.codePoints[markdown.length] = point;
    units.push(markdown.length);
    this.units = Int32Array.from(units);
  }

  codePoint(unit: number): number {
    return this.codePoints[unit];
  }

  unit(codePoint: number): number {
    return this.units[Math.min(codePoint, this.units.length - 1)];
  }
}
