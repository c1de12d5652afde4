import type { Block, Box, Inline } from '@docconv/model';
import { buildLines, mend, words, type TextRun } from './layout';

/**
 * The web links a PDF draws over its text (Link annotations with an address), carried onto the
 * words they cover: the text keeps its words and gains the link's target, whatever the words say
 * ("the report" links to its address; a printed address that was cut short links to the whole).
 * Links to a place inside the document are left out.
 */

/** A web link on a page: its target, the boxes it covers (page units from the top left) and the words under them. */
export interface PageLink {
  url: string;
  boxes: Box[];
  text: string;
}

/** What this module reads of a pdf.js annotation. */
interface Annotation {
  subtype?: unknown;
  url?: unknown;
  rect?: unknown;
  quadPoints?: unknown;
}

/** The boxes an annotation covers, from the top left of the page whose view is `view`: each of its quadrilaterals, else its rectangle. */
function coveredBoxes(annotation: Annotation, [x0, , , y1]: number[]): Box[] {
  const toBox = (xs: number[], ys: number[]): Box => [
    Math.min(...xs) - x0,
    y1 - Math.max(...ys),
    Math.max(...xs) - x0,
    y1 - Math.min(...ys),
  ];
  const quads = annotation.quadPoints;
  if (quads instanceof Float32Array || Array.isArray(quads)) {
    const points = Array.from(quads as ArrayLike<number>);
    const boxes: Box[] = [];
    for (let i = 0; i + 8 <= points.length; i += 8) {
      const quad = points.slice(i, i + 8);
      boxes.push(toBox([quad[0], quad[2], quad[4], quad[6]], [quad[1], quad[3], quad[5], quad[7]]));
    }
    if (boxes.length > 0) return boxes;
  }
  const [ax0, ay0, ax1, ay1] = annotation.rect as number[];
  return [toBox([ax0, ax1], [ay0, ay1])];
}

/** The web links of a page whose view is `view` (pdf.js's annotations of it), each with the words of `runs` whose middle it covers. */
export function pageLinks(annotations: unknown[], view: number[], runs: TextRun[]): PageLink[] {
  const links: PageLink[] = [];
  const all = runs.flatMap(words);
  for (const annotation of annotations as (Annotation | null)[]) {
    if (annotation?.subtype !== 'Link' || typeof annotation.url !== 'string' || !Array.isArray(annotation.rect))
      continue;
    const boxes = coveredBoxes(annotation, view);
    const covered = all.filter((word) => {
      const [x, y] = [word.x + word.width / 2, word.y - word.size * 0.3];
      return boxes.some(([left, top, right, bottom]) => x >= left && x <= right && y >= top && y <= bottom);
    });
    const lines = buildLines(covered).map((line) => line.text.trim());
    const text = lines.length === 0 ? '' : lines.reduce(mend).trim();
    if (text.length >= 2) links.push({ url: annotation.url, boxes, text });
  }
  return links;
}

/** Whether the middle of `covered` lies in `box`: a link's box reaches into the lines above and below its own. */
const within = (covered: Box, box: Box) => {
  const [x, y] = [(covered[0] + covered[2]) / 2, (covered[1] + covered[3]) / 2];
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3];
};

/**
 * The blocks with the words each link covers linked: in the heading, paragraph or list item on
 * the link's page whose box holds the middle of one of the link's boxes, the first stretch of
 * unlinked text that reads as the link's words. `links` by page number.
 */
export function withLinks(blocks: Block[], links: Map<number, PageLink[]>): Block[] {
  if (links.size === 0) return blocks;
  return blocks.map((block) => {
    const { page, box } = block.from;
    const onPage = page === undefined ? undefined : links.get(page);
    if (!onPage || !box || (block.type !== 'heading' && block.type !== 'paragraph' && block.type !== 'list_item'))
      return block;
    let content = block.content;
    for (const link of onPage) {
      if (link.boxes.some((covered) => within(covered, box))) content = linked(content, link) ?? content;
    }
    return content === block.content ? block : { ...block, content: joinedLinks(content) };
  });
}

/** Closing punctuation: what a sentence or a bracket puts after a link's words. */
const CLOSING = /[.,;:!?>)\]}"'”’]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * `content` with the first unlinked text run holding the link's words split around them and
 * those linked. A link starts and ends between words: words that print the target go on as far
 * as the target does, and to the end of their word where the print differs from it (a lost
 * ligature), their closing punctuation aside; other words are found only as whole words.
 */
function linked(content: Inline[], link: PageLink): Inline[] | undefined {
  // What opens and closes around the words (brackets, the sentence's punctuation) is not part of the link.
  const words = link.text.replace(/^[<([{"'“‘]+/, '').replace(/[.,;:!?>)\]}"'”’]+$/, '');
  if (words === '') return undefined;
  // Words that print the target: a piece of the address itself, not a word it happens to hold.
  const printed = /[/.@]/.test(words) && link.url.includes(words);
  for (const [i, inline] of content.entries()) {
    if (inline.kind !== 'text' || inline.link !== undefined || inline.code) continue;
    const text = inline.text;
    const apart = (at: number, end: number) =>
      !WORD_CHARACTER.test(text[at - 1] ?? ' ') && (printed || !WORD_CHARACTER.test(text[end] ?? ' '));
    let at = text.indexOf(words);
    while (at >= 0 && !apart(at, at + words.length)) at = text.indexOf(words, at + 1);
    if (at < 0) continue;
    let end = at + words.length;
    if (printed) {
      while (end < text.length && link.url.includes(text.slice(at, end + 1))) end++;
      while (end < text.length && /\S/.test(text[end])) end++;
      while (end > at + words.length && CLOSING.test(text[end - 1]) && !link.url.endsWith(text.slice(at, end))) end--;
    }
    const rest = text.slice(end);
    const parts: Inline[] = [
      ...(at > 0 ? [{ ...inline, text: text.slice(0, at) }] : []),
      { ...inline, text: text.slice(at, end), link: link.url },
      ...(rest !== '' ? [{ ...inline, text: rest }] : []),
    ];
    return [...content.slice(0, i), ...parts, ...content.slice(i + 1)];
  }
  return undefined;
}

/**
 * Two stretches of one link parted only by white space (its words over two lines) are one link:
 * an address the line break cut (`…/advisory/` `PhaseI`, which the target holds whole) is joined
 * without the space; other words keep it.
 */
function joinedLinks(content: Inline[]): Inline[] {
  const out = [...content];
  for (let i = 0; i + 2 < out.length; i++) {
    const [a, gap, b] = [out[i], out[i + 1], out[i + 2]];
    if (a.kind !== 'text' || gap.kind !== 'text' || b.kind !== 'text') continue;
    if (a.link === undefined || a.link !== b.link || gap.link !== undefined || gap.text.trim() !== '') continue;
    const space = a.link.includes(a.text + b.text) ? '' : gap.text;
    out.splice(i, 3, { ...a, text: a.text + space + b.text });
    i--;
  }
  return out;
}
