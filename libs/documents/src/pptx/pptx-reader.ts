import {
  OfficeReadError,
  type XmlNode,
  child,
  childrenNamed,
  pathOf,
  descendants,
  textContent,
  runText,
  nsAttr,
  readXmlPart,
  type Relationship,
  readRels,
  relsOfType,
  pictureComment,
} from '../office/ooxml';
import { chartBlocks, readChart } from '../office/charts';
import { contentText, plain, type Block, type Document, type ListItemBlock, type Provenance } from '@docconv/model';
import {
  FURNITURE_TYPES,
  TITLE_TYPES,
  collectShapes,
  loadLayout,
  openDeck,
  placeholderOf,
  type Deck,
  type PlaceholderRef,
  type ShapeContext,
  type ShapeRef,
} from './pptx-deck';
import { readingOrder } from './pptx-reading-order';
import { tableBlock } from './pptx-table';
import { paragraphBlocks, paragraphsOf } from './pptx-text';
import type { ZipReader } from '../zip/zip-reader';

/**
 * A PowerPoint package as a document: per slide in presentation order, a level-2 heading with
 * the slide's title (its title placeholder's text, else a title drawn as text, else "Slide N"),
 * the slide's text boxes, tables, pictures, charts and SmartArt in reading order (top to bottom,
 * then left to right), then its speaker notes and the reviewers' comments under level-3
 * headings. Every block says its slide.
 */
export async function readPresentation(zip: ZipReader, file: string): Promise<Document> {
  const { deck, slideParts } = await openDeck(zip);
  const blocks: Block[] = [];
  for (const [index, part] of slideParts.entries()) {
    if (part) blocks.push(...(await slideBlocks(deck, part, { file, slide: index + 1 })));
  }
  return { version: 1, blocks };
}

async function slideBlocks(deck: Deck, part: string, from: Provenance): Promise<Block[]> {
  const slide = await readXmlPart(deck.zip, part);
  if (!slide) throw new OfficeReadError(`slide ${from.slide} is missing (${part})`);
  const rels = await readRels(deck.zip, part);
  const layoutRel = relsOfType(rels, 'slideLayout')[0];
  const layout = layoutRel ? await loadLayout(deck, layoutRel.target) : undefined;
  const context: ShapeContext = { deck, rels, layout };

  let title: string | undefined;
  const items: SlideItem[] = [];
  for (const [order, shape] of collectShapes(pathOf(slide, 'sld', 'cSld', 'spTree'), context).entries()) {
    const ph = placeholderOf(shape.node);
    if (ph && TITLE_TYPES.has(ph.type) && title === undefined) {
      const text = paragraphsOf(shape.node, context, ph)
        .map((p) => p.content.map((run) => (run.kind === 'text' ? run.text : '\n')).join(''))
        .map((text) => text.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' ');
      if (text) {
        title = text;
        continue;
      }
    }
    if (ph && FURNITURE_TYPES.has(ph.type)) continue;
    const blocks = await shapeBlocks(shape, context, ph, from);
    if (blocks.length) items.push({ box: shape.box, order, blocks, size: largestTextSize(shape.node) });
  }
  const read = readingOrder(items);
  const drawnTitle = title === undefined ? titleDrawnAsText(read, deck.slideHeight) : undefined;
  const blocks: Block[] = [
    { type: 'heading', level: 2, from, content: plain(title ?? drawnTitle ?? `Slide ${from.slide}`) },
    ...(drawnTitle === undefined ? read : read.slice(1)).flatMap((item) => item.blocks),
  ];

  const notesRel = relsOfType(rels, 'notesSlide')[0];
  const notes = notesRel ? await notesBlocks(deck, notesRel.target, from) : [];
  if (notes.length) blocks.push({ type: 'heading', level: 3, from, content: plain('Notes') }, ...notes);
  const comments = await commentBlocks(deck, rels, from);
  if (comments.length) blocks.push({ type: 'heading', level: 3, from, content: plain('Comments') }, ...comments);
  return blocks;
}

/** A shape read for the slide's body: its box, its place in the slide's tree, its blocks, its largest font size. */
interface SlideItem {
  box?: ShapeRef['box'];
  order: number;
  blocks: Block[];
  size?: number;
}

/** Text this size (in hundredths of a point) or larger, alone at the top of a slide, is its title. */
const TITLE_TEXT_SIZE = 2400;

/**
 * The title of a slide that has no title placeholder but draws one as text (a deck made by hand
 * or converted from another program, LibreOffice's included): the first shape read is a single
 * short line in the top quarter of the slide, at 24 points or more and larger than any other
 * text on it. Its text, or undefined.
 */
function titleDrawnAsText(items: SlideItem[], slideHeight: number): string | undefined {
  const [first, ...rest] = items;
  if (!first?.box || first.size === undefined || first.size < TITLE_TEXT_SIZE) return undefined;
  if (first.box.y + first.box.h / 2 > slideHeight / 4) return undefined;
  if (rest.some((item) => item.size !== undefined && item.size >= first.size!)) return undefined;
  const [block, ...others] = first.blocks;
  if (others.length > 0 || block?.type !== 'paragraph' || block.content.some((run) => run.kind !== 'text')) {
    return undefined;
  }
  const text = contentText(block.content).replace(/\s+/g, ' ').trim();
  return text !== '' && text.length <= MAX_DRAWN_TITLE ? text : undefined;
}

/** The longest line read as a slide's title drawn as text. */
const MAX_DRAWN_TITLE = 120;

/** The largest font size a shape's runs set, in hundredths of a point; undefined when none sets one. */
function largestTextSize(node: XmlNode): number | undefined {
  if (node.name !== 'sp') return undefined;
  const sizes = [...descendants(node, 'rPr'), ...descendants(node, 'endParaRPr')]
    .map((rPr) => Number(rPr.attrs.sz))
    .filter((size) => Number.isFinite(size) && size > 0);
  return sizes.length > 0 ? Math.max(...sizes) : undefined;
}

async function shapeBlocks(
  shape: ShapeRef,
  context: ShapeContext,
  ph: PlaceholderRef | undefined,
  from: Provenance,
): Promise<Block[]> {
  const node = shape.node;
  if (node.name === 'sp') return paragraphBlocks(paragraphsOf(node, context, ph), from);
  if (node.name === 'pic') return [pictureBlock(node, from)];
  const data = pathOf(node, 'graphic', 'graphicData');
  const table = child(data, 'tbl');
  if (table) return [tableBlock(table, context, from)];
  const chartRef = child(data, 'chart');
  if (chartRef) {
    const rel = context.rels.get(nsAttr(chartRef, 'id') ?? '');
    const chart = rel && !rel.external ? await readXmlPart(context.deck.zip, rel.target) : undefined;
    return chart ? chartBlocks(readChart(chart), from) : [];
  }
  const diagram = child(data, 'relIds');
  if (diagram) {
    const rel = context.rels.get(nsAttr(diagram, 'dm') ?? '');
    const model = rel && !rel.external ? await readXmlPart(context.deck.zip, rel.target) : undefined;
    return diagramItems(model, from);
  }
  return [];
}

/**
 * A picture, as a comment naming it (`image: its description`): the pictures of a presentation
 * are not taken out, so there is no file to link, and a comment keeps the description out of the
 * text the reader sees.
 */
function pictureBlock(node: XmlNode, from: Provenance): Block {
  return pictureComment(pathOf(node, 'nvPicPr', 'cNvPr')?.attrs.descr, from);
}

/** SmartArt: the text of its nodes (and assistants), as a list. */
function diagramItems(model: XmlNode | undefined, from: Provenance): ListItemBlock[] {
  const items: ListItemBlock[] = [];
  for (const pt of descendants(child(model, 'dataModel'), 'pt')) {
    const type = pt.attrs.type ?? 'node';
    if (type !== 'node' && type !== 'asst') continue;
    const text = childrenNamed(child(pt, 't'), 'p')
      .map((p) => runText(p).trim())
      .filter(Boolean)
      .join(' ');
    if (text) items.push({ type: 'list_item', from, depth: 0, content: plain(text) });
  }
  return items;
}

/** The speaker notes: the text of the notes page's body placeholders (not the slide image or its number). */
async function notesBlocks(deck: Deck, part: string, from: Provenance): Promise<Block[]> {
  const notes = await readXmlPart(deck.zip, part);
  const context: ShapeContext = { deck, rels: await readRels(deck.zip, part) };
  const blocks: Block[] = [];
  for (const shape of collectShapes(pathOf(notes, 'notes', 'cSld', 'spTree'), context)) {
    const ph = placeholderOf(shape.node);
    if (shape.node.name !== 'sp' || (ph && ph.type !== 'body')) continue;
    blocks.push(...paragraphBlocks(paragraphsOf(shape.node, context, undefined), from));
  }
  return blocks;
}

/** The slide's comments (legacy and modern parts) as a list, each reply nested under its comment. */
async function commentBlocks(deck: Deck, rels: Map<string, Relationship>, from: Provenance): Promise<Block[]> {
  const items: ListItemBlock[] = [];
  for (const rel of relsOfType(rels, 'comments')) {
    if (rel.external) continue;
    const list = await readXmlPart(deck.zip, rel.target);
    for (const cm of childrenNamed(child(list, 'cmLst'), 'cm')) {
      const comment = commentItem(deck, cm, 0, from);
      if (comment) items.push(comment);
      for (const reply of descendants(child(cm, 'replyLst'), 'reply')) {
        const item = commentItem(deck, reply, 1, from);
        if (item) items.push(item);
      }
    }
  }
  return items;
}

/** A comment as a list item: `[author: Name (initials), time: …] text`; undefined when it has no text. */
function commentItem(deck: Deck, cm: XmlNode, depth: number, from: Provenance): ListItemBlock | undefined {
  const body = child(cm, 'txBody');
  const text = body
    ? childrenNamed(body, 'p')
        .map((p) => runText(p).trim())
        .filter(Boolean)
        .join(' ')
    : textContent(child(cm, 'text')).trim();
  if (!text) return undefined;
  const author = deck.authors.get(cm.attrs.authorId ?? '');
  const who = author ? `${author.name}${author.initials ? ` (${author.initials})` : ''}` : 'unknown';
  const when = cm.attrs.dt ?? cm.attrs.created;
  const label = `author: ${who}${when ? `, time: ${when}` : ''}`;
  return { type: 'list_item', from, depth, content: plain(`[${label}] ${text.replace(/\s+/g, ' ')}`) };
}
