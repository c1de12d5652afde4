import { figureSized } from './figure-images';
import type { Line } from './layout';
import { blockLine, UNPLACED } from './model-blocks';
import type { Shape } from './rules';

/**
 * Figures drawn on a page (charts, diagrams): places where many shapes lie together. Text set
 * in a figure — axis ticks, legends, a diagram's labels — is not the document's running text:
 * it is taken out of the flow and kept, in reading order, as an HTML comment where the figure
 * stands, which Markdown readers do not show but search and language models still see. The
 * figure itself is rendered as a picture (see drawnFigures).
 */

/** Shapes this close (points) belong to one figure. */
const JOIN = 4;
/** A figure is drawn with at least this many shapes… */
const MIN_SHAPES = 5;
/** …and is at least this large (points) each way. */
const MIN_SIDE = 40;
/** Text this far (in its own line heights) outside a figure's shapes still labels it (ticks, axis titles). */
const LABEL_REACH = 1.5;
/** Drawings covering more than this share of a page are the page itself (notes in ink), not figures on it. */
const INK_PAGE = 0.5;
/** Drawings reaching this near (share of the page's width) to both its sides are the page's ink, not a figure. */
const PAGE_EDGE = 0.04;
/** A line of this many words is running text. */
const PROSE_WORDS = 8;
/** A caption opens with its figure's or table's number; it stays in the text, under or over its figure. */
export const CAPTION =
  /^(?:fig(?:ure)?|table|chart|graph|exhibit|plate|map|diagram|scheme|listing|그림|표|도표|図|表|图)\.?\s*(?:[A-Z][-.])?[\dIVXivx]/i;

/** A note under a table or a figure: its sources, its notes, or how to read it ("Exhibit reads: …"). */
export const NOTE = /^(?:notes?|sources?|(?:exhibit|table|figure) reads)\s*[:.]/i;

/** The regions of a page that shapes draw a figure in. */
export function figureRegions(shapes: Shape[]): Shape[] {
  const parent = shapes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const sorted = shapes.map((s, i) => ({ s, i })).sort((a, b) => a.s.x0 - b.s.x0);
  // Sweep by left edge: only shapes whose left edge is within reach can touch.
  for (let a = 0; a < sorted.length; a++) {
    for (let b = a + 1; b < sorted.length && sorted[b].s.x0 <= sorted[a].s.x1 + JOIN; b++) {
      const p = sorted[a].s;
      const q = sorted[b].s;
      if (q.y0 <= p.y1 + JOIN && p.y0 <= q.y1 + JOIN) parent[find(sorted[a].i)] = find(sorted[b].i);
    }
  }
  const groups = new Map<number, Shape[]>();
  shapes.forEach((shape, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), shape]));
  return [...groups.values()]
    .filter((group) => group.length >= MIN_SHAPES)
    .map((group) => ({
      x0: Math.min(...group.map((s) => s.x0)),
      y0: Math.min(...group.map((s) => s.y0)),
      x1: Math.max(...group.map((s) => s.x1)),
      y1: Math.max(...group.map((s) => s.y1)),
    }))
    .filter((r) => r.x1 - r.x0 >= MIN_SIDE && r.y1 - r.y0 >= MIN_SIDE);
}

/**
 * The page's lines with the text of each figure taken out and written as one comment block where
 * the figure stands. A region whose text is mostly running text (a framed note drawn with
 * rounded corners), or that holds most of the page's lines, is not a figure.
 */
export function withFigureText(lines: Line[], regions: Shape[]): Line[] {
  const taken = new Set<Line>();
  const blocks: Line[] = [];
  const pageText = lines.filter((l) => !l.block);
  for (const region of regions) {
    const inside = textIn(lines, region).filter((line) => !taken.has(line));
    if (inside.length === 0 || !drawsFigure(inside, pageText)) continue;
    for (const line of inside) taken.add(line);
    const text = [...inside]
      .sort((a, b) => a.y - b.y || a.x - b.x)
      .map((l) => l.text)
      .join(' · ');
    // The text is kept out of the reading but not lost: a comment.
    blocks.push(
      blockLine(
        {
          ...inside[0],
          text,
          x: region.x0,
          right: region.x1,
          y: Math.min(region.y0, ...inside.map((l) => l.y - l.size)),
          bottom: Math.max(region.y1, ...inside.map((l) => l.y)),
        },
        [{ type: 'comment', text: `figure: ${text}`, from: UNPLACED }],
      ),
    );
  }
  return taken.size === 0 ? lines : [...lines.filter((l) => !taken.has(l)), ...blocks].sort((a, b) => a.y - b.y);
}

/**
 * The regions of `regions` that are figures, to be rendered as pictures: those whose text (if
 * any) labels a figure as withFigureText takes it (mostly not running text, not most of the
 * page's), whose own strokes are large enough to be a figure (see figureSized), and that lie under
 * no more text left in the flow than they label. Each reaches as far as the text that labels it
 * and the rules it touches (axes, grid lines) where those reach no text left in the flow; one
 * reaching from one side of the page to the other is the page's ink. None on a page whose
 * drawings cover most of it (notes in ink).
 */
export function drawnFigures(
  lines: Line[],
  regions: Shape[],
  rules: Shape[],
  pageWidth: number,
  pageHeight: number,
): Shape[] {
  const drawnArea = regions.reduce((sum, r) => sum + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
  if (drawnArea > pageWidth * pageHeight * INK_PAGE) return [];
  const pageText = lines.filter((l) => !l.block);
  return regions.flatMap((drawing) => {
    // Its text is what withFigureText takes out of the flow: a figure's labels, not running text.
    const inside = textIn(lines, drawing);
    if (inside.length > 0 && !drawsFigure(inside, pageText)) return [];
    if (!figureSized(drawing.x1 - drawing.x0, drawing.y1 - drawing.y0, pageWidth, pageHeight)) return [];
    const labelled = {
      x0: Math.min(drawing.x0, ...inside.map((l) => l.x)),
      y0: Math.min(drawing.y0, ...inside.map((l) => l.y - l.size)),
      x1: Math.max(drawing.x1, ...inside.map((l) => l.right)),
      y1: Math.max(drawing.y1, ...inside.map((l) => l.y + l.size * 0.3)),
    };
    // The rules it touches (axes, grid lines) are part of it, unless they reach text left in the flow.
    const touching = rules.filter(
      (r) =>
        r.x0 <= drawing.x1 + JOIN &&
        r.x1 >= drawing.x0 - JOIN &&
        r.y0 <= drawing.y1 + JOIN &&
        r.y1 >= drawing.y0 - JOIN,
    );
    const ruled = {
      x0: Math.min(labelled.x0, ...touching.map((r) => r.x0)),
      y0: Math.min(labelled.y0, ...touching.map((r) => r.y0)),
      x1: Math.max(labelled.x1, ...touching.map((r) => r.x1)),
      y1: Math.max(labelled.y1, ...touching.map((r) => r.y1)),
    };
    const flowing = (region: Shape) =>
      pageText
        .filter((line) => !inside.includes(line) && middleIn(line, region))
        .reduce((n, l) => n + l.text.length, 0);
    // A drawing over more text left in the flow than it labels (a card of an infographic, a box around a note) is no figure.
    if (flowing(labelled) > inside.reduce((n, l) => n + l.text.length, 0)) return [];
    const region = flowing(ruled) > flowing(labelled) ? labelled : ruled;
    // Ink from edge to edge is the page's own (notes written across it), not a figure set on it.
    if (region.x0 < pageWidth * PAGE_EDGE && region.x1 > pageWidth * (1 - PAGE_EDGE)) return [];
    return [region];
  });
}

/** The lines of text in or labelling a region (a caption aside). */
function textIn(lines: Line[], region: Shape): Line[] {
  return lines.filter((line) => !line.block && !CAPTION.test(line.text) && within(line, region));
}

/** Whether the text inside a drawing labels a figure: mostly not running text, and not most of the page's. */
function drawsFigure(inside: Line[], pageText: Line[]): boolean {
  const chars = inside.reduce((n, l) => n + l.text.length, 0);
  const prose = inside.filter((l) => l.text.split(/\s+/).length >= PROSE_WORDS).reduce((n, l) => n + l.text.length, 0);
  // A drawing that holds most of the page's text is the page itself (notes in ink, a poster).
  return prose < chars / 2 && inside.length <= pageText.length / 2;
}

/** Whether the middle of a line lies in a region. */
function middleIn(line: Line, region: Shape): boolean {
  const x = (line.x + line.right) / 2;
  const y = line.y - line.size * 0.35;
  return x >= region.x0 && x <= region.x1 && y >= region.y0 && y <= region.y1;
}

function within(line: Line, region: Shape): boolean {
  const reach = line.size * LABEL_REACH;
  const middle = line.y - line.size * 0.35;
  return (
    line.x >= region.x0 - reach &&
    line.right <= region.x1 + reach &&
    middle >= region.y0 - reach &&
    middle <= region.y1 + reach
  );
}
