import { marginKey, repeatedMargins, type Line, type PageLines } from './layout';

/**
 * Page furniture: what a page carries that is not the document's text — running heads and
 * feet, page numbers, journal and repository stamps, download notices, revision marks. It sits
 * at the top or bottom edge, set apart from the body by whitespace, and either repeats from
 * page to page, is smaller than the body type, or says what it is (a page number, a date, an
 * address, a copyright line). A one-page document has no repetition to go by; the rest still
 * holds.
 */

/** How far into the page (share of its height) a running head or foot may reach. */
const EDGE = 0.12;
/** How far a page number alone on the page's outermost line may sit from the edge (A4 text set for letter paper). */
const PAGE_NUMBER_EDGE = 0.2;
/** Lines at the edge that are set apart from the rest by at least this many body leadings form the edge cluster. */
const APART_LEADINGS = 1.8;
/** An edge cluster of more lines than this is body text, not furniture. */
const MAX_CLUSTER_LINES = 3;

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';

/** Words and forms that only page furniture uses. */
const FURNITURE = [
  /\b(?:downloaded|download date|retrieved|accessed|digitized)\b/i,
  /\b(?:doi|issn|isbn)\b|\b10\.\d{4,}\//i,
  /(?:https?:\/\/|www\.)\S+/i,
  /©|\(c\)\s*\d{4}|\bcopyright\b|\ball rights reserved\b|\bpublished by\b/i,
  /\b(?:vol\.?|volume)\s*\d+|\bissue\s*\d+|\bno\.\s*\d+|\bpp?\.\s*\d+/i,
  new RegExp(
    `\\b\\d{1,2}\\.?\\s+${MONTH}\\s+\\d{4}\\b|\\b${MONTH}\\s+\\d{1,2},?\\s+\\d{4}\\b|\\b${MONTH}\\s+\\d{4}\\b`,
    'i',
  ),
  /\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/,
  /\brevision\b|\brev\.\s*\d|\bp\/n\b|\bdraft\b/i,
  /\bpage\s+\d+(?:\s+of\s+\d+)?\b/i,
];

/** A line that is nothing but a page number: `12`, `- 12 -`, `xiv`, `Page 3 of 9`, `3/9`. */
export function isPageNumber(text: string): boolean {
  return /^\s*(?:[-–—]\s*)?(?:\d{1,4}|[ivxlcdm]{1,7}|page\s+\d{1,4}(?:\s+of\s+\d{1,4})?|\d{1,4}\s*\/\s*\d{1,4})(?:\s*[-–—])?\s*$/i.test(
    text,
  );
}

/** A running head that carries its page number at one end: `400 BRITISH HUSBANDRY. [Ch. XIX.`, `Chapter 2 Roles 17`. */
function isNumberedHead(text: string): boolean {
  return (
    !/(?:\.\s*){4,}/.test(text) &&
    /^(?:\d{1,4}|[ivxlcdm]{1,6})\s+\S.{3,}$|^\S.{3,}\s(?:\d{1,4}|[ivxlcdm]{1,6})$/i.test(text)
  );
}

/** The document's pages without their furniture. Blocks (tables, OCR'd pages' paragraphs) are never furniture. */
export function withoutFurniture(pages: PageLines[], bodySize: number): PageLines[] {
  const repeated = repeatedMargins(pages);
  return pages.map((page) => {
    if (page.ordered) return page; // an OCR engine's page: its lines are not placed for this
    const furniture = new Set<Line>();
    for (const edge of ['top', 'bottom'] as const) {
      const lines = page.lines.filter((l) => !l.block).sort((a, b) => (edge === 'top' ? a.y - b.y : b.y - a.y));
      const outermost = lines[0];
      const fromEdge = outermost && (edge === 'top' ? outermost.y - outermost.size : page.height - outermost.y);
      if (outermost && fromEdge < page.height * PAGE_NUMBER_EDGE && isPageNumber(outermost.text))
        furniture.add(outermost);
      const band = edgeBand(lines, page.height, edge, bodySize);
      for (const line of band) {
        // At the edge, a line without a letter or digit, a page number or a line seen on many pages goes.
        if (!/[\p{L}\p{N}]/u.test(line.text) || isPageNumber(line.text) || repeated.has(marginKey(line.text))) {
          furniture.add(line);
        }
      }
      // A running head numbered at one end is the first thing on the page, whitespace or not.
      const first = band.find((l) => !furniture.has(l));
      if (edge === 'top' && first && isNumberedHead(first.text) && first.size <= bodySize + 0.5) furniture.add(first);
      const rest = lines.filter((l) => !furniture.has(l));
      const cluster = apartCluster(rest, band.filter((l) => !furniture.has(l)).length, bodySize);
      for (const [i, line] of cluster.entries()) {
        // A page number ends (or starts) the outermost line only: further in, a number ending a line is text.
        const numbered = i === 0 && isNumberedHead(line.text);
        if (line.size < bodySize * 0.92 || FURNITURE.some((p) => p.test(line.text)) || numbered) furniture.add(line);
      }
    }
    return { ...page, lines: page.lines.filter((line) => line.block || !furniture.has(line)) };
  });
}

/**
 * The lines (given outermost first) within EDGE of one edge of the page, up to the first line
 * of text set larger than running text.
 */
function edgeBand(lines: Line[], height: number, edge: 'top' | 'bottom', bodySize: number): Line[] {
  const limit = height * EDGE;
  const band: Line[] = [];
  for (const line of lines) {
    const inEdge = edge === 'top' ? line.y - line.size < limit : line.y > height - limit;
    // A rule or a stray mark in large type is not a heading: it does not end the band.
    if (!inEdge || (line.size > bodySize * 1.3 && /[\p{L}\p{N}]/u.test(line.text))) break;
    band.push(line);
  }
  return band;
}

/**
 * The outermost lines (of `lines`, given outermost first; at most the first `inBand`) that
 * whitespace sets apart from the body: up to the first gap of APART_LEADINGS body leadings, at
 * most MAX_CLUSTER_LINES lines; none when no such gap comes (the body itself reaches the edge).
 */
function apartCluster(lines: Line[], inBand: number, bodySize: number): Line[] {
  const leading = bodySize * 1.2;
  for (let i = 0; i < Math.min(inBand, MAX_CLUSTER_LINES); i++) {
    const next = lines[i + 1];
    if (!next || Math.abs(next.y - lines[i].y) >= leading * APART_LEADINGS) return lines.slice(0, i + 1);
  }
  return [];
}
