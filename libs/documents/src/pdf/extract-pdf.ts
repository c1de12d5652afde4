import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import type { TextContent, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api';
import { cleanText, fixedPitch, fontTraits, isGlyphMark, type FontTraits } from './glyphs';
import { buildLines, type Line, type PageLines, type TextRun } from './layout';
import { pageLinks } from './links';
import { ruledTables, withRulesUnder } from './lattice';
import { ocrPageLines, ocrPageReport, type PageReport } from '../ocr/ocr-page';
import type { PageReader, PageReading } from '../ocr/page-reader';
import { withFailedPages } from '../page-failure';
import { PDF_OPTIONS, pdfjs } from './pdfjs';
import { renderPage } from './render-page';
import { readUnreadable } from './unreadable-text';
import { laidOut } from './layout-document';
import { blockLine, UNPLACED, withTables } from './model-blocks';
import { drawnFigures, figureRegions, withFigureText } from './figures';
import { pageDrawing, type Shape } from './rules';
import { pageTurn, turnedRect, turnedTransform, turnedView } from './turn';
import { readPageByPage, reportedPages, requireSomePage, type PageRange, type StopSignal } from '../page-loop';
import type { Extraction } from '../extract';
import { ImageCollector, type ExtractedImage } from '../images';
import { pictureAreas, renderedArea, samePlaceJoined, type FigureArea } from './figure-images';
import { SettledPages, type Settle } from './settled-pages';

export { laidOut } from './layout-document';

export type PageProgress = (donePages: number) => void;

/**
 * Markdown from a PDF's text layer: positioned text gathered page by page (a page that cannot
 * be read is reported failed and skipped; `shouldStop` ends the reading, see readPageByPage), then laid out for
 * the whole document (running heads, two-column pages, headings, lists, tables, hyphenation,
 * right-to-left lines; see layoutModel), or with `settle` page after page as the pages are read
 * and delivered (SettledPages), each handed over once final.
 */
export async function extractPdf(
  path: string,
  displayName: string,
  onPage: PageProgress,
  reader?: PageReader,
  shouldStop?: StopSignal,
  imagePrefix?: string,
  settle?: Settle,
): Promise<Extraction> {
  const settling = settle && new SettledPages(displayName, settle);
  const delivered = settling?.delivered;
  const read = await readPdfPages(path, displayName, undefined, onPage, reader, shouldStop, imagePrefix, delivered);
  const pages = withFailedPages(read.pages, read.reports, 'page');
  const outcome = { pages: read.reports, stopped: read.stopped, dropped: read.dropped, images: read.images };
  return { ...(settling ? settling.finish(pages) : laidOut(pages, displayName)), ...outcome };
}

/** What reading some of a PDF's pages gave: the lines of each page read, in order, and every page's report. */
export interface PdfPages {
  /** The file's name as the job shows it (the blocks' provenance). */
  file?: string;
  pages: PageLines[];
  reports: PageReport[];
  /** Cancelled: the pages delivered until then. */
  stopped: boolean;
  /** The pages read when the cancel was seen that finished after it, not delivered (see readPageByPage). */
  dropped?: PageRange;
  /** The figures of the pages read, linked from their lines (when asked for with an image prefix). */
  images?: ExtractedImage[];
}

/**
 * A large PDF read in parts (page ranges, each by any worker) laid out as one document, exactly as
 * if it had been read whole: the layout's document-wide decisions (body size, heading levels,
 * running heads, footnotes) see every page. A file none of whose pages could be read fails.
 */
export function assemblePdf(parts: PdfPages[]): Extraction {
  const reports = parts.flatMap((part) => part.reports);
  requireSomePage(reports);
  return {
    ...laidOut(
      withFailedPages(
        parts.flatMap((part) => part.pages),
        reports,
        'page',
      ),
      parts.find((part) => part.file !== undefined)?.file ?? '',
    ),
    images: parts.flatMap((part) => part.images ?? []),
    pages: reports,
    stopped: parts.some((part) => part.stopped),
  };
}

/**
 * The positioned lines of pages `range` (all of them when absent) of a PDF, page by page, for
 * `layoutDocument` to lay out. Over the whole file, a file none of whose pages can be read fails.
 */
export async function readPdfPages(
  path: string,
  displayName: string,
  range: PageRange | undefined,
  onPage: PageProgress,
  reader?: PageReader,
  shouldStop?: StopSignal,
  imagePrefix?: string,
  onDelivered?: (pages: PageLines[], reports: PageReport[]) => void,
): Promise<PdfPages> {
  const images = imagePrefix === undefined ? undefined : new ImageCollector(imagePrefix);
  const data = new Uint8Array(await readFile(path));
  const lib = await pdfjs();
  // Text, rules and fonts need no pictures: images are left undecoded (a scan is read by the OCR
  // engine from poppler's rendering of the page), which halves the time on pages with photographs.
  const task = lib.getDocument({ data, ...PDF_OPTIONS, maxImageSize: WITHOUT_IMAGES });
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (error) {
      throw new DomainError(
        'file_processing_failed',
        `${displayName} could not be read as a PDF: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    const pages: PageLines[] = [];
    const readPage = async (n: number): Promise<PageReport> => {
      let scanned = false;
      let report: PageReport = { page: n, source: 'text' };
      try {
        const page = await document.getPage(n);
        const content = await page.getTextContent();
        const marks = drawingMarks(content.items);
        // A page set sideways is read turned upright: its text, rules and pictures in the turned frame.
        // Not one with text OCR is to read (its areas are rendered from the page as it stands).
        const texts = content.items.filter((item): item is TextItem => 'str' in item);
        const turn = reader && texts.some((item) => cleanText(item.str).garbage) ? undefined : pageTurn(texts);
        const view = turn ? turnedView(page.view) : page.view;
        const [x0, y0, x1, y1] = view;
        const height = y1 - y0;
        const upright = (item: TextItem): TextItem =>
          turn ? { ...item, transform: turnedTransform(item.transform as number[], turn, page.view) } : item;
        const uprightRect = <T extends Shape>(rect: T): T => (turn ? turnedRect(rect, turn, y1 - y0, x1 - x0) : rect);
        // Rules, figure shapes and an OCR program's invisible text layer come from the drawing
        // operators; a page that draws no paths and sets no invisible text is read without them.
        const operators = marks.has('paths') || marks.has('invisibleText') ? await page.getOperatorList() : undefined;
        const drawing = operators ? pageDrawing(operators, lib.OPS, page.view) : NO_DRAWING;
        const rules = drawing.rules.map(uprightRect);
        const shapes = drawing.shapes.map(uprightRect);
        // The font's own name tells bold, fixed-width and symbol faces.
        const traits = new Map<string, FontTraits>();
        const traitsOf = (fontName: string) => {
          let known = traits.get(fontName);
          if (!known) {
            known = fontTraits((content.styles[fontName] as NamedStyle | undefined)?.fontName);
            traits.set(fontName, known);
          }
          return known;
        };
        // The invisible text an OCR program lays over a scan is set in some font stretched to the words
        // it covers: its face says nothing about the page (a Courier there is not code).
        const overlay = operators !== undefined && mostlyInvisibleText(operators, lib.OPS);
        const garbage: TextRun[] = [];
        const runs: TextRun[] = [];
        const byFont = new Map<string, TextRun[]>();
        for (const drawn of texts) {
          const item = upright(drawn);
          if (sidewaysInMargin(item, x0, x1 - x0)) continue;
          const face = traitsOf(item.fontName);
          const { text, garbage: unreadable } = cleanText(item.str);
          const run: TextRun = {
            text,
            ...placement(item, x0, y1),
            rtl: item.dir === 'rtl',
            font: face.name,
            bold: face.bold && !overlay,
            italic: face.italic && !overlay,
            mono: face.mono && !overlay,
            mark: isGlyphMark(item.str, face),
          };
          if (unreadable && !run.mark)
            garbage.push({ ...run, text: item.str }); // as drawn, codes and all
          else runs.push(run);
          const set = byFont.get(item.fontName);
          if (set) set.push(run);
          else byFont.set(item.fontName, [run]);
        }
        // A face whose letters all take one width is fixed-width, whatever its name says.
        if (!overlay) for (const set of byFont.values()) if (fixedPitch(set)) for (const run of set) run.mono = true;
        scanned = reader !== undefined && !usableTextLayer(runs) && marks.has('images');
        if (!scanned) {
          const read = reader && garbage.length > 0 ? await readUnreadable(path, n, garbage, reader) : undefined;
          // Over a scan (or a page of ink strokes) the text layer is the page: there is no figure to set apart.
          const drawings = overlay ? [] : figureRegions(shapes);
          const { tables, rest } = ruledTables(rules, [...runs, ...(read?.runs ?? [])], drawings);
          const built = overlay ? buildLines(rest) : buildLines(withRulesUnder(rest, rules));
          const placed = withTables(overlay ? built : withFigureText(built, drawings), tables);
          // Pictures and drawings large enough to be figures, linked where they are drawn (an OCR'd
          // scan's picture is the page); a drawing is rendered in the page's own frame, so not on a turned page.
          const drawn = turn ? [] : drawnFigures(built, drawings, rules, x1 - x0, height);
          const figures =
            images && !overlay && (marks.has('images') || drawn.length > 0)
              ? await figureLines(path, n, page.view, placed, images, uprightRect, drawn)
              : [];
          const links = turn ? [] : pageLinks((await page.getAnnotations()) as unknown[], page.view, runs);
          pages.push({
            number: n,
            width: x1 - x0,
            height,
            ...(turn ? { turn } : {}),
            ...(links.length > 0 ? { links } : {}),
            lines: figures.length > 0 ? [...placed, ...figures].sort((a, b) => a.y - b.y) : placed,
          });
          if (read) report = read.report(n);
        }
        page.cleanup();
      } catch (error) {
        throw new DomainError(
          'file_processing_failed',
          `Page ${n} of ${displayName} could not be read (${error instanceof Error ? error.message : String(error)}). Check the file and upload it again.`,
        );
      }
      if (scanned && reader) {
        // A page without a usable text layer is rendered and read by the job's OCR engine; one that
        // is not read keeps its place (and size), for the line that says so.
        const image = await renderPage(path, n, reader.options.dpi);
        const scale = 72 / reader.options.dpi;
        let result: PageReading;
        try {
          result = await reader.readPage(image, n);
        } catch (error) {
          pages.push({ number: n, width: image.width * scale, height: image.height * scale, lines: [] });
          throw error;
        }
        pages.push({ ...ocrPageLines(result, reader.options.model, scale), number: n });
        report = ocrPageReport(n, result);
      }
      return report;
    };
    const pageRange = range ? { first: range.first, last: Math.min(range.last, document.numPages) } : document.numPages;
    const delivered = onDelivered && ((reports: PageReport[]) => onDelivered(reportedPages(pages, reports), reports));
    const loop = await readPageByPage(pageRange, displayName, readPage, onPage, shouldStop, delivered);
    const { reports, stopped, dropped } = loop;
    const kept = stopped ? reportedPages(pages, reports) : pages;
    return { file: displayName, pages: kept, reports, stopped, dropped, images: images?.images ?? [] };
  } finally {
    await task.destroy();
  }
}

/** A caption's opening: the word and its number. */
const CAPTION = /^(fig(ure)?\.?|chart|graph|image|photo|plate|그림|사진|도표)\s*[\dIVXivx]/i;
/** How far from a picture its caption may be, in points. */
const CAPTION_GAP = 36;

/**
 * The figures of page `n` (whose view is `view`) as block lines holding their Markdown image
 * links, each stored in `images`, placed in the frame the page is read in (`upright`): its
 * pictures and the drawings `drawn`, each rendered from the page as it shows them, one figure
 * where they overlap. A figure's alternative text is its caption when a line next to it opens like one.
 */
async function figureLines(
  path: string,
  n: number,
  view: number[],
  lines: Line[],
  images: ImageCollector,
  upright: (rect: Shape) => Shape,
  drawn: Shape[],
): Promise<Line[]> {
  const out: Line[] = [];
  const [vx0, vy0, vx1, vy1] = view;
  const pictures = await pictureAreas(path, n, vx1 - vx0, vy1 - vy0);
  const drawings = drawn.map((r): FigureArea => ({ box: [r.x0, r.y0, r.x1, r.y1], photo: false }));
  for (const area of samePlaceJoined([...pictures, ...drawings])) {
    const bytes = await renderedArea(path, n, area).catch(() => undefined);
    const name = bytes && (await images.add(`p${n}-${out.length + 1}`, bytes));
    if (!name) continue;
    const [x0, y0, x1, y1] = area.box;
    const { x0: left, y0: top, x1: right, y1: bottom } = upright({ x0, y0, x1, y1 });
    // The nearest line under or over it that opens like a caption.
    const gap = (line: Line) =>
      line.y - line.size >= bottom - 2 ? line.y - line.size - bottom : line.y <= top + 2 ? top - line.y : Infinity;
    const caption = lines
      .filter((line) => !line.block && CAPTION.test(line.text.trim()) && line.x < right && line.right > left)
      .filter((line) => gap(line) <= CAPTION_GAP)
      .sort((a, b) => gap(a) - gap(b))[0];
    // Read where the picture ends: text set beside it (a figure in a column of its own) is read first, whole.
    const alt = (caption?.text ?? 'Figure').replace(/\s+/g, ' ').trim().slice(0, 200);
    out.push(
      blockLine(
        {
          text: '',
          x: left,
          right,
          y: bottom,
          bottom,
          blockTop: top,
          size: caption?.size ?? 10,
          rtl: false,
          runs: [],
          bold: false,
        },
        [{ type: 'figure', src: name, alt, from: UNPLACED }],
      ),
    );
  }
  return out;
}

/**
 * A text layer worth reading: at least a few words' worth of visible characters, most of them
 * not private-use glyph codes, replacement characters or control codes (what fonts without a
 * Unicode map produce).
 */
export function usableTextLayer(runs: TextRun[]): boolean {
  const visible = runs
    .map((r) => r.text)
    .join('')
    .replace(/\s+/g, '');
  if (visible.length < 20) return false;
  const garbage = [...visible].filter((c) => c === '\uFFFD' || (c >= '\uE000' && c <= '\uF8FF') || c < ' ').length;
  return garbage / visible.length < 0.3;
}

/**
 * What a page draws besides text, as the text pass marks it (`patches/pdfjs-dist+5.6.205.patch`):
 * `paths` (filled or stroked), `images` (a scan is one big image), `invisibleText` (text rendering
 * mode 3, an OCR program's layer over a scan). The marks are items of their own, without text.
 */
type DrawingMark = 'paths' | 'images' | 'invisibleText';

function drawingMarks(items: TextContent['items']): Set<DrawingMark> {
  const marks = new Set<DrawingMark>();
  for (const item of items) {
    const mark = item as { type?: string; kind?: DrawingMark };
    if (mark.type === 'drawing' && mark.kind) marks.add(mark.kind);
  }
  return marks;
}

/** A text content style with the font's own name, which the patched text pass adds. */
type NamedStyle = TextStyle & { fontName?: string };

const NO_DRAWING: ReturnType<typeof pageDrawing> = { rules: [], shapes: [] };

/** The largest image, in pixels, the text pass decodes: none. */
const WITHOUT_IMAGES = 1;

/** Text rendering mode 3: glyphs neither filled nor stroked. */
const INVISIBLE_RENDERING = 3;

/**
 * Whether most of a page's text is drawn invisibly (rendering mode 3): the text layer an OCR
 * program lays over a scan. The mode is part of the graphics state, so it follows save and restore.
 */
function mostlyInvisibleText(
  operators: { fnArray: number[]; argsArray: unknown[] },
  ops: Record<string, number>,
): boolean {
  const shows = new Set([ops.showText, ops.showSpacedText, ops.nextLineShowText, ops.nextLineSetSpacingShowText]);
  const saved: number[] = [];
  let mode = 0;
  let visible = 0;
  let invisible = 0;
  operators.fnArray.forEach((fn, i) => {
    if (fn === ops.save) saved.push(mode);
    else if (fn === ops.restore) mode = saved.pop() ?? 0;
    else if (fn === ops.setTextRenderingMode) mode = (operators.argsArray[i] as number[] | null)?.[0] ?? 0;
    else if (shows.has(fn)) {
      if (mode === INVISIBLE_RENDERING) invisible++;
      else visible++;
    }
  });
  return invisible > visible;
}

/**
 * Where a run of text sits on the page, in page space measured from the top left. Text set
 * sideways (a table's turned column heads) covers a column one line high and as tall as the
 * text is long: its `y` is its lowest point, `top` its highest.
 */
function placement(item: TextItem, left: number, pageTop: number): Pick<TextRun, 'x' | 'y' | 'width' | 'size' | 'top'> {
  const [a, b, , , e, f] = item.transform as number[];
  const size = Math.hypot(a, b) || item.height;
  if (Math.abs(b) <= Math.abs(a)) return { x: e - left, y: pageTop - f, width: item.width, size };
  // Turned a quarter: reading upwards (b > 0) the glyphs stand to the left of the baseline, downwards to the right.
  const up = b > 0;
  return {
    x: e - left - (up ? size * 0.8 : size * 0.2),
    width: size,
    y: pageTop - (up ? f : f - item.width),
    top: pageTop - (up ? f + item.width : f),
    size,
  };
}

/**
 * Text set sideways in a side margin: an arXiv stamp, a repository's download notice, a line-number
 * gutter turned on its side. It is page furniture, never part of the reading.
 */
function sidewaysInMargin(item: TextItem, left: number, width: number): boolean {
  const [a, b] = item.transform as number[];
  const x = (item.transform as number[])[4] - left;
  return Math.abs(b) > Math.abs(a) && (x < width * 0.12 || x > width * 0.88);
}
