import {
  OfficeReadError,
  type XmlNode,
  child,
  childrenNamed,
  pathOf,
  descendants,
  nsAttr,
  readXmlPart,
  type Relationship,
  readRels,
  relsOfType,
} from '../office/ooxml';
import type { ZipReader } from '../zip/zip-reader';

/**
 * A PowerPoint package as the reader walks it: the slides in presentation order, the layouts
 * and masters their placeholders inherit boxes and list styles from (each read once), the
 * comment authors, and the slide tree flattened into shapes with their boxes on the slide.
 */

/** A shape's box on its slide, in EMU. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A placeholder reference: its type (`title`, `body`, `obj`…) and index. */
export interface PlaceholderRef {
  type: string;
  idx?: string;
}

interface Placeholder extends PlaceholderRef {
  box?: Box;
  lstStyle?: XmlNode;
}

export interface Master {
  placeholders: Placeholder[];
  titleStyle?: XmlNode;
  bodyStyle?: XmlNode;
  otherStyle?: XmlNode;
}

export interface Layout {
  placeholders: Placeholder[];
  master?: Master;
}

export interface CommentAuthor {
  name: string;
  initials: string;
}

export interface Deck {
  zip: ZipReader;
  /** The slides' height in EMU (`sldSz`; 7.5 inches when the package does not say). */
  slideHeight: number;
  layouts: Map<string, Promise<Layout>>;
  masters: Map<string, Promise<Master>>;
  authors: Map<string, CommentAuthor>;
}

/** What reading a shape needs: its part's relationships and, on a slide, the slide's layout. */
export interface ShapeContext {
  deck: Deck;
  rels: Map<string, Relationship>;
  layout?: Layout;
}

/** A shape of the flattened tree and its box on the slide (absent when neither it nor its placeholder has one). */
export interface ShapeRef {
  node: XmlNode;
  box?: Box;
}

export const TITLE_TYPES = new Set(['title', 'ctrTitle']);

/** PowerPoint's slide height, 7.5 inches in EMU, for a package that does not give its own. */
const DEFAULT_SLIDE_HEIGHT = 6858000;

/** Placeholders of the slide's furniture (date, footer, slide number, header): not read as content. */
export const FURNITURE_TYPES = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

/** Opens the package: its comment authors, and each slide's part in presentation order. */
export async function openDeck(zip: ZipReader): Promise<{ deck: Deck; slideParts: string[] }> {
  const partName = relsOfType(await readRels(zip, ''), 'officeDocument')[0]?.target ?? 'ppt/presentation.xml';
  const presentation = await readXmlPart(zip, partName);
  if (!child(presentation, 'presentation')) throw new OfficeReadError(`it has no presentation part (${partName})`);
  const rels = await readRels(zip, partName);
  const height = Number(pathOf(presentation, 'presentation', 'sldSz')?.attrs.cy);
  const slideHeight = Number.isFinite(height) && height > 0 ? height : DEFAULT_SLIDE_HEIGHT;
  const deck: Deck = { zip, slideHeight, layouts: new Map(), masters: new Map(), authors: new Map() };
  for (const type of ['commentAuthors', 'authors']) {
    for (const rel of relsOfType(rels, type)) {
      const authors = await readXmlPart(zip, rel.target);
      for (const a of [...descendants(authors, 'cmAuthor'), ...descendants(authors, 'author')]) {
        if (a.attrs.id) deck.authors.set(a.attrs.id, { name: a.attrs.name ?? '', initials: a.attrs.initials ?? '' });
      }
    }
  }
  const slideParts: string[] = [];
  for (const sldId of childrenNamed(pathOf(presentation, 'presentation', 'sldIdLst'), 'sldId')) {
    const rel = rels.get(nsAttr(sldId, 'id') ?? '');
    // A slide without a part keeps its number: numbers count the presentation's slides.
    slideParts.push(rel && !rel.external ? rel.target : '');
  }
  return { deck, slideParts };
}

export async function loadLayout(deck: Deck, part: string): Promise<Layout> {
  let layout = deck.layouts.get(part);
  if (!layout) {
    layout = (async () => {
      const root = await readXmlPart(deck.zip, part);
      const rels = await readRels(deck.zip, part);
      const masterRel = relsOfType(rels, 'slideMaster')[0];
      return {
        placeholders: placeholdersOf(pathOf(root, 'sldLayout', 'cSld', 'spTree')),
        master: masterRel ? await loadMaster(deck, masterRel.target) : undefined,
      };
    })();
    deck.layouts.set(part, layout);
  }
  return layout;
}

async function loadMaster(deck: Deck, part: string): Promise<Master> {
  let master = deck.masters.get(part);
  if (!master) {
    master = (async () => {
      const root = await readXmlPart(deck.zip, part);
      const styles = pathOf(root, 'sldMaster', 'txStyles');
      return {
        placeholders: placeholdersOf(pathOf(root, 'sldMaster', 'cSld', 'spTree')),
        titleStyle: child(styles, 'titleStyle'),
        bodyStyle: child(styles, 'bodyStyle'),
        otherStyle: child(styles, 'otherStyle'),
      };
    })();
    deck.masters.set(part, master);
  }
  return master;
}

function placeholdersOf(tree: XmlNode | undefined): Placeholder[] {
  const found: Placeholder[] = [];
  const visit = (node: XmlNode) => {
    for (const c of node.children) {
      if (c.name === 'grpSp') visit(c);
      const ph = placeholderOf(c);
      if (ph) found.push({ ...ph, box: boxOf(c), lstStyle: pathOf(c, 'txBody', 'lstStyle') });
    }
  };
  if (tree) visit(tree);
  return found;
}

export function placeholderOf(node: XmlNode): PlaceholderRef | undefined {
  const nv = node.children.find((c) => c.name.startsWith('nv') && c.name.endsWith('Pr'));
  const ph = pathOf(nv, 'nvPr', 'ph');
  return ph ? { type: ph.attrs.type ?? 'obj', idx: ph.attrs.idx } : undefined;
}

/** The layout's placeholder a slide's placeholder inherits from: by index, else by type. */
export function inLayout(layout: Layout | undefined, ph: PlaceholderRef): Placeholder | undefined {
  const candidates = layout?.placeholders ?? [];
  if (ph.idx !== undefined && ph.idx !== '0') {
    const byIdx = candidates.find((c) => c.idx === ph.idx);
    if (byIdx) return byIdx;
  }
  return (
    candidates.find((c) => c.type === ph.type) ??
    (TITLE_TYPES.has(ph.type) ? candidates.find((c) => TITLE_TYPES.has(c.type)) : undefined)
  );
}

/** The master's placeholder of the same role: title, one of the furniture, or body. */
export function inMaster(master: Master | undefined, ph: PlaceholderRef): Placeholder | undefined {
  const type = TITLE_TYPES.has(ph.type) ? 'title' : FURNITURE_TYPES.has(ph.type) ? ph.type : 'body';
  return master?.placeholders.find((c) => c.type === type);
}

function boxOf(node: XmlNode): Box | undefined {
  const xfrm = child(node, 'xfrm') ?? pathOf(node, 'spPr', 'xfrm') ?? pathOf(node, 'grpSpPr', 'xfrm');
  const off = child(xfrm, 'off');
  if (!off) return undefined;
  const ext = child(xfrm, 'ext');
  return {
    x: Number(off.attrs.x ?? 0),
    y: Number(off.attrs.y ?? 0),
    w: Number(ext?.attrs.cx ?? 0),
    h: Number(ext?.attrs.cy ?? 0),
  };
}

/** Flattens a shape tree: hidden shapes are left out, groups opened and their children's boxes mapped onto the slide. */
export function collectShapes(
  tree: XmlNode | undefined,
  context: ShapeContext,
  out: ShapeRef[] = [],
  place: (box: Box) => Box = (box) => box,
): ShapeRef[] {
  for (const node of tree?.children ?? []) {
    switch (node.name) {
      case 'sp':
      case 'graphicFrame':
      case 'pic': {
        const props = node.children.find((c) => c.name.startsWith('nv') && c.name.endsWith('Pr'));
        if (isOn(child(props, 'cNvPr')?.attrs.hidden)) break;
        let box = boxOf(node);
        const ph = box ? undefined : placeholderOf(node);
        if (ph) box = inLayout(context.layout, ph)?.box ?? inMaster(context.layout?.master, ph)?.box;
        out.push({ node, box: box && place(box) });
        break;
      }
      case 'grpSp': {
        const xfrm = pathOf(node, 'grpSpPr', 'xfrm');
        const num = (name: string, key: string) => Number(child(xfrm, name)?.attrs[key] ?? 0);
        const sx = num('chExt', 'cx') ? num('ext', 'cx') / num('chExt', 'cx') : 1;
        const sy = num('chExt', 'cy') ? num('ext', 'cy') / num('chExt', 'cy') : 1;
        const inner = (b: Box): Box =>
          place({
            x: num('off', 'x') + (b.x - num('chOff', 'x')) * sx,
            y: num('off', 'y') + (b.y - num('chOff', 'y')) * sy,
            w: b.w * sx,
            h: b.h * sy,
          });
        collectShapes(node, context, out, inner);
        break;
      }
      case 'AlternateContent': {
        const before = out.length;
        collectShapes(child(node, 'Choice'), context, out, place);
        if (out.length === before) collectShapes(child(node, 'Fallback'), context, out, place);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** An OOXML boolean attribute. */
export function isOn(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}
