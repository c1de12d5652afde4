import { inked, type Line, type PageLines } from './layout';

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

/** Where margin lines are looked for, as shares of the page's height from the top and from the bottom. */
const MARGIN_TOP = 0.09;
const MARGIN_BOTTOM = 0.08;

/** Margin lines that repeat over the document's pages. */
interface Margins {
  /** Keys (marginKey) of lines seen at the top or bottom of many pages: running heads and feet. */
  repeated: Set<string>;
  /**
   * Keys of margin lines whose number goes up with the page, one for one (`MNRAS guide 7`, then
   * `9` two pages on): running heads with their page number, whatever their type's size. A
   * chapter title's number does not follow the pages.
   */
  paged: Set<string>;
}

function margins(pages: PageLines[]): Margins {
  const found: Margins = { repeated: new Set(), paged: new Set() };
  if (pages.length < 3) return found;
  const counts = new Map<string, number>();
  const offsets = new Map<string, number[]>();
  pages.forEach((page, index) => {
    const seen = new Set<string>();
    for (const line of page.lines) {
      if (line.block || (line.y >= page.height * MARGIN_TOP && line.y <= page.height * (1 - MARGIN_BOTTOM))) continue;
      const key = marginKey(line.text);
      if (seen.has(key)) continue;
      seen.add(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const number = /^(\d{1,4})\b|\b(\d{1,4})$/.exec(line.text.trim());
      if (number) offsets.set(key, [...(offsets.get(key) ?? []), Number(number[1] ?? number[2]) - index]);
    }
  });
  // Books alternate running heads between left and right pages, and chapters change them:
  // a margin line seen on a fifth of the pages (at least twice) is a running head.
  for (const [key, count] of counts) if (count >= Math.max(2, Math.ceil(pages.length * 0.2))) found.repeated.add(key);
  for (const [key, seen] of offsets) {
    if (found.repeated.has(key) && seen.every((o) => o === seen[0])) found.paged.add(key);
  }
  return found;
}

/** Page numbers (arabic or roman) vary from page to page; the rest of a running head does not. */
export function marginKey(text: string): string {
  return text
    .replace(/\d+/g, '#')
    .replace(/\b[ivxlcdm]+\b/gi, '#') // roman page numbers in front matter
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

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

/**
 * A line opened by a section number set close to its title (`1 INTRODUCTION`, `2.1 Scope`): a
 * heading. A running head's page number stands apart from the head, at the margin.
 */
function sectionNumbered(line: Line): boolean {
  const runs = line.runs.filter(inked);
  const number = /^\d{1,2}(?:\.\d{1,2})*/.exec(runs[0]?.text.trim() ?? '')?.[0];
  if (!number) return false;
  if (runs[0].text.trim() !== number) return true; // the title follows in the same run, a space away
  const next = runs[1];
  return next !== undefined && next.x - (runs[0].x + runs[0].width) < line.size * 1.2;
}

/** The document's pages without their furniture. Blocks (tables, OCR'd pages' paragraphs) are never furniture. */
export function withoutFurniture(pages: PageLines[], bodySize: number): PageLines[] {
  const { repeated, paged } = margins(pages);
  return pages.map((page) => {
    if (page.ordered) return page; // an OCR engine's page: its lines are not placed for this
    const furniture = new Set<Line>();
    for (const line of page.lines) {
      const inMargin = line.y < page.height * MARGIN_TOP || line.y > page.height * (1 - MARGIN_BOTTOM);
      if (!line.block && inMargin && paged.has(marginKey(line.text))) furniture.add(line);
    }
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
      // A running head numbered at one end is the first thing on the page, whitespace or not; it
      // heads text, so a line alone on its page ("Short note 4417") is that page's text.
      const first = band.find((l) => !furniture.has(l));
      if (
        edge === 'top' &&
        first &&
        lines.some((l) => l !== first && !furniture.has(l)) &&
        isNumberedHead(first.text) &&
        first.size <= bodySize + 0.5 &&
        !sectionNumbered(first)
      ) {
        furniture.add(first);
      }
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
 * most MAX_CLUSTER_LINES lines; none when no such gap comes (the body itself reaches the edge)
 * or no body follows (the page's only text is its body, whatever it says).
 */
function apartCluster(lines: Line[], inBand: number, bodySize: number): Line[] {
  const leading = bodySize * 1.2;
  for (let i = 0; i < Math.min(inBand, MAX_CLUSTER_LINES); i++) {
    const next = lines[i + 1];
    if (!next) return [];
    if (Math.abs(next.y - lines[i].y) >= leading * APART_LEADINGS) return lines.slice(0, i + 1);
  }
  return [];
}
