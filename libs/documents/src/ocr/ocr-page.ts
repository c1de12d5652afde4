import type { ImageRule, OcrLine, OcrModelName, OcrResult } from '@docconv/ocr';
import { plain, writeMarkdown, type Box, type ParagraphBlock } from '@docconv/model';
import { buildLines, type PageLines, type TextRun } from '../pdf/layout';
import { blockLine, UNPLACED, unionBox } from '../pdf/model-blocks';
import { ocrTables, type OcrTable } from './ocr-tables';
import { continuesAddress } from '../text/broken-addresses';
import type { PageFailure } from '@docconv/contracts';
import type { PageReading } from './page-reader';

/** Below this confidence an OCR line keeps the body's size whatever its height (see ocrRuns). */
const HEADING_MIN_CONFIDENCE = 80;

/** What one page (or image frame) was read from, for the job's page report. */
export interface PageReport {
  page: number;
  /**
   * `text+ocr`: the text layer, with areas whose text layer is unreadable read by OCR;
   * `failed`: the page could not be read (its reason in `notes`); it is not charged.
   */
  source: 'text' | 'ocr' | 'text+ocr' | 'failed';
  /** Why a `failed` page was not read (the sentence is the first of `notes`). */
  failure?: PageFailure;
  engine?: string;
  /** Mean OCR confidence of the page's characters, 0…100. */
  confidence?: number;
  /** The page was read poorly, though well enough to deliver (see PageReader.readPage). */
  low_confidence?: boolean;
  /** Seconds the page's OCR took (orientation, every pass). */
  seconds?: number;
  notes?: string[];
}

/** The report of a page read whole by OCR. */
export function ocrPageReport(page: number, reading: PageReading): PageReport {
  return {
    page,
    source: 'ocr',
    engine: reading.engine,
    confidence: Math.round(reading.confidence * 10) / 10,
    low_confidence: reading.lowConfidence,
    seconds: Math.round(reading.seconds * 100) / 100,
    ...(reading.notes.length > 0 ? { notes: reading.notes } : {}),
  };
}

/**
 * An OCR'd page as page lines for the document layout. `premium` hands every word to the same
 * layout as a PDF's text layer (headings from type size, lists) in the engine's reading order, one
 * layout line per engine line, and the tables on the page (ruled ones from the rules found in its
 * image, aligned ones from its words laid out by baseline: see ocrTables) where the first line
 * they took words from stood; `basic` keeps the engine's paragraphs in its reading order. `scale`
 * converts image pixels to the units of the other pages (72/dpi for a PDF page rendered at `dpi`).
 */
export function ocrPageLines(
  result: OcrResult & { rules?: ImageRule[] },
  model: OcrModelName,
  scale: number,
): PageLines {
  const page = { width: result.width * scale, height: result.height * scale };
  if (model === 'premium') {
    const rules = (result.rules ?? []).map((r) => ({
      x0: r.x0 * scale,
      y0: r.y0 * scale,
      x1: r.x1 * scale,
      y1: r.y1 * scale,
    }));
    const { tables, lines: byLine } = ocrTables(ocrRuns(result, scale), rules, page);
    const lines = readFirst(byLine, tables).flatMap((i) => [
      ...tables.filter((table) => table.at === i).map((table) => table.line),
      ...buildLines(byLine[i]).map((line) => ({ ...line, paragraph: result.lines[i].paragraph })),
    ]);
    lines.push(...tables.filter((table) => table.at === byLine.length).map((table) => table.line));
    return { ...page, lines, ordered: true };
  }
  const paragraphs = ocrParagraphBlocks(result.lines, scale);
  if (paragraphs.length === 0) return { ...page, lines: [] };
  const block = blockLine(
    { text: '', x: 0, right: page.width, y: 0, size: 0, rtl: false, runs: [], bold: false },
    paragraphs,
  );
  const anchors = result.lines.map((line) => ({
    text: line.text,
    box: [line.box.x, line.box.y, line.box.x + line.box.width, line.box.y + line.box.height].map((v) => v * scale) as [
      number,
      number,
      number,
      number,
    ],
  }));
  return { ...page, lines: [block], anchors };
}

/**
 * The order the engine's lines are read in once the page's tables stand in their place. An engine
 * reads a table's cells column by column, and a line it read among them that stands above the
 * table (a title whose label "Table 17." lines up with the stub column) is read before the
 * table, not after its first column.
 */
function readFirst(byLine: TextRun[][], tables: OcrTable[]): number[] {
  const order = byLine.map((_, i) => i);
  const key = order.map((i) => {
    const above = tables.find(
      (table) =>
        table.at < i &&
        i < table.last &&
        byLine[i].length > 0 &&
        byLine[i].every((run) => run.y <= (table.line.blockTop ?? table.line.y)),
    );
    return above ? above.at - 0.5 : i;
  });
  return order.sort((a, b) => key[a] - key[b] || a - b);
}

/**
 * Words as positioned text runs, one list per OCR line. All words of a line share its baseline so
 * they stay one line, and a size from the line's height, so a heading's larger type reads as
 * larger. The baseline is where the box implies it: an engine's box reaches below the type
 * (descenders, a margin), and a word placed by its box's bottom sits a fifth of a line too low —
 * a caption just above a ruled table would fall inside its top row.
 */
export function ocrRuns(result: OcrResult, scale: number): TextRun[][] {
  // Box heights vary with ascenders, descenders and brackets; lines within a quarter of the
  // page's typical height are body text of one size, so paragraphs are not split by them.
  const typical = typicalLineHeight(result);
  return result.lines.map((line) => {
    // A heading is larger type read well: a short line of doubtful characters (a logo, a stamp)
    // is given the body's size, so it never becomes one.
    const own = typeHeight(line);
    const body = Math.abs(own - typical) <= typical * 0.25 || line.confidence < HEADING_MIN_CONFIDENCE;
    const height = body ? typical : own;
    const size = height * scale * 0.8;
    // Every line is lifted alike (by the body's type), so lines keep their distances from each other.
    const baseline = (line.box.y + line.box.height - typical * 0.8 * BOX_DESCENT) * scale;
    return line.words.map((word) => ({
      text: word.text,
      x: word.box.x * scale,
      y: baseline,
      width: word.box.width * scale,
      size,
      rtl: false,
    }));
  });
}

/** How far an OCR box's bottom lies under the baseline of its type, in the body type's sizes. */
const BOX_DESCENT = 0.25;

/**
 * How tall a line's type is: its box's height, unless most of its words are shorter (the lower
 * median of their heights): an engine now and then gives a word a box reaching into the next line.
 */
function typeHeight(line: OcrLine): number {
  const heights = line.words.map((w) => w.box.height).sort((a, b) => a - b);
  return Math.min(line.box.height, heights[Math.floor((heights.length - 1) / 2)] ?? line.box.height);
}

/** The median height of a page's OCR lines, in pixels (0 for an empty page). */
export function typicalLineHeight(result: OcrResult): number {
  const heights = result.lines.map((l) => l.box.height).sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 0;
}

/**
 * Paragraphs from OCR lines in the engine's order: lines the engine grouped into one paragraph
 * (Tesseract's block and paragraph numbers) are joined; without that grouping a gap taller
 * than most of a line, or a line starting well left or right of the last, begins a paragraph.
 * An address broken at a line end goes on without a space (see continuesAddress), and a word
 * hyphenated there is mended. Each paragraph stands in the box of its lines
 * (page units: pixels times `scale`).
 */
export function ocrParagraphBlocks(lines: OcrLine[], scale = 1): ParagraphBlock[] {
  const paragraphs: { texts: string[]; boxes: Box[] }[] = [];
  let previous: OcrLine | undefined;
  for (const line of lines) {
    const text = line.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const starts =
      !previous ||
      (line.paragraph !== undefined
        ? line.paragraph !== previous.paragraph
        : line.box.y - (previous.box.y + previous.box.height) > previous.box.height * 0.8 ||
          Math.abs(line.box.x - previous.box.x) > previous.box.height * 3);
    const { x, y, width, height } = line.box;
    const box: Box = [x * scale, y * scale, (x + width) * scale, (y + height) * scale];
    if (starts) paragraphs.push({ texts: [text], boxes: [box] });
    else {
      paragraphs[paragraphs.length - 1].texts.push(text);
      paragraphs[paragraphs.length - 1].boxes.push(box);
    }
    previous = line;
  }
  return paragraphs.map(({ texts, boxes }) => ({
    type: 'paragraph',
    content: plain(
      texts.reduce((text, next) => {
        if (continuesAddress(text, next)) return text + next;
        return /[\p{L}]-$/u.test(text) && /^\p{Ll}/u.test(next) ? text.slice(0, -1) + next : `${text} ${next}`;
      }),
    ),
    from: { ...UNPLACED, box: unionBox(boxes) },
  }));
}

/** The Markdown of an OCR'd page's paragraphs (ocrParagraphBlocks), as the model's writer writes them. */
export function ocrParagraphs(lines: OcrLine[]): string {
  return writeMarkdown({ version: 1, blocks: ocrParagraphBlocks(lines) }).trimEnd();
}
