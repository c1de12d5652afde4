import {
  OfficeReadError,
  unreadable,
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
  chartMarkdown,
} from '../office/ooxml';
import { emphasisMarkdown, tildesCouldPair, type InlineRun } from '@docconv/model';
import { escapeHeadingText, escapeInlineSyntax, escapeLineStart, escapeText } from '@docconv/model';
import { gridRows, tableMarkdown, type PlacedCell, type GridCell as TableCell } from '@docconv/model';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { withZip, type ZipReader } from '../zip/zip-reader';

/**
 * Markdown from a PowerPoint file, read straight from its OOXML parts: one `##` heading per
 * slide in presentation order carrying the slide's title, then the slide's text boxes, tables
 * (GFM, or HTML with row and column spans when cells are merged), charts and SmartArt in
 * reading order (top to bottom, then left to right), bullet levels as nested lists, then the
 * speaker notes and the reviewers' comments.
 */
export async function extractPptx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  try {
    return await withZip(path, readPresentation, new DecompressionBudget(displayName, limits));
  } catch (error) {
    throw unreadable(error, displayName, 'PowerPoint', 'Check that it opens in PowerPoint, save it again as .pptx');
  }
}

const EMU_TOLERANCE = 91440; // a tenth of an inch: shapes this close vertically share a row

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Placeholder {
  type: string;
  idx?: string;
  box?: Box;
  lstStyle?: XmlNode;
}

interface Master {
  placeholders: Placeholder[];
  titleStyle?: XmlNode;
  bodyStyle?: XmlNode;
  otherStyle?: XmlNode;
}

interface Layout {
  placeholders: Placeholder[];
  master?: Master;
}

interface CommentAuthor {
  name: string;
  initials: string;
}

interface Deck {
  zip: ZipReader;
  layouts: Map<string, Promise<Layout>>;
  masters: Map<string, Promise<Master>>;
  authors: Map<string, CommentAuthor>;
}

async function readPresentation(zip: ZipReader): Promise<string> {
  const partName = relsOfType(await readRels(zip, ''), 'officeDocument')[0]?.target ?? 'ppt/presentation.xml';
  const presentation = await readXmlPart(zip, partName);
  if (!child(presentation, 'presentation')) throw new OfficeReadError(`it has no presentation part (${partName})`);
  const rels = await readRels(zip, partName);
  const deck: Deck = { zip, layouts: new Map(), masters: new Map(), authors: new Map() };
  for (const type of ['commentAuthors', 'authors']) {
    for (const rel of relsOfType(rels, type)) {
      const authors = await readXmlPart(zip, rel.target);
      for (const a of [...descendants(authors, 'cmAuthor'), ...descendants(authors, 'author')]) {
        if (a.attrs.id) deck.authors.set(a.attrs.id, { name: a.attrs.name ?? '', initials: a.attrs.initials ?? '' });
      }
    }
  }
  const slides: string[] = [];
  const ids = childrenNamed(pathOf(presentation, 'presentation', 'sldIdLst'), 'sldId');
  for (const [index, sldId] of ids.entries()) {
    const rel = rels.get(nsAttr(sldId, 'id') ?? '');
    if (!rel || rel.external) continue;
    slides.push(await slideMarkdown(deck, rel.target, index + 1));
  }
  return slides.length === 0 ? '' : `${slides.join('\n\n')}\n`;
}

async function slideMarkdown(deck: Deck, part: string, number: number): Promise<string> {
  const slide = await readXmlPart(deck.zip, part);
  if (!slide) throw new OfficeReadError(`slide ${number} is missing (${part})`);
  const rels = await readRels(deck.zip, part);
  const layoutRel = relsOfType(rels, 'slideLayout')[0];
  const layout = layoutRel ? await loadLayout(deck, layoutRel.target) : undefined;
  const context: ShapeContext = { deck, rels, layout };

  const shapes: ShapeRef[] = [];
  collectShapes(pathOf(slide, 'sld', 'cSld', 'spTree'), (b) => b, shapes, context);
  let title: string | undefined;
  const items: { box?: Box; order: number; markdown: string }[] = [];
  for (const [order, shape] of shapes.entries()) {
    const ph = placeholderOf(shape.node);
    if (ph && (ph.type === 'title' || ph.type === 'ctrTitle') && title === undefined) {
      const text = paragraphsOf(shape.node, context, ph)
        .map((p) => p.plain.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' ');
      if (text) {
        title = text;
        continue;
      }
    }
    if (ph && ['dt', 'ftr', 'sldNum', 'hdr'].includes(ph.type)) continue;
    const markdown = await shapeMarkdown(shape, context, ph);
    if (markdown) items.push({ box: shape.box, order, markdown });
  }
  const parts = [
    `## ${title ? escapeHeadingText(escapeText(title)) : `Slide ${number}`}`,
    ...readingOrder(items).map((i) => i.markdown),
  ];

  const notesRel = relsOfType(rels, 'notesSlide')[0];
  const notes = notesRel ? await notesMarkdown(deck, notesRel.target) : '';
  if (notes) parts.push('### Notes', notes);
  const comments = await commentsMarkdown(deck, rels);
  if (comments) parts.push('### Comments', comments);
  return parts.join('\n\n');
}

/**
 * Top to bottom, in bands read left to right: a shape joins the band above it when its top is
 * within a tenth of an inch of the band's, or when it stands beside one of the band's shapes
 * (no overlap across, most of the lower one's height shared), as columns do. Within a band,
 * shapes read left to right, a column's shapes top to bottom.
 */
function readingOrder<T extends { box?: Box; order: number }>(items: T[]): T[] {
  const placed = items
    .filter((i) => i.box)
    .sort((a, b) => a.box!.y - b.box!.y || a.box!.x - b.box!.x || a.order - b.order);
  const bands: T[][] = [];
  for (const item of placed) {
    const band = bands[bands.length - 1];
    const joins =
      band &&
      (item.box!.y - band[0].box!.y <= EMU_TOLERANCE || band.some((other) => besideEachOther(item.box!, other.box!)));
    if (joins) band.push(item);
    else bands.push([item]);
  }
  const ordered = bands.flatMap((band) =>
    band.sort((a, b) => a.box!.x - b.box!.x || a.box!.y - b.box!.y || a.order - b.order),
  );
  return [...ordered, ...items.filter((i) => !i.box)];
}

/** Two shapes side by side: apart across, and sharing at least half the height of the shorter. */
function besideEachOther(a: Box, b: Box): boolean {
  const across = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const down = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return across <= 0 && down >= 0.5 * Math.min(a.h, b.h);
}

// ---- layouts and masters ----------------------------------------------------------------------

async function loadLayout(deck: Deck, part: string): Promise<Layout> {
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

function placeholderOf(node: XmlNode): { type: string; idx?: string } | undefined {
  const nv = node.children.find((c) => c.name.startsWith('nv') && c.name.endsWith('Pr'));
  const ph = pathOf(nv, 'nvPr', 'ph');
  return ph ? { type: ph.attrs.type ?? 'obj', idx: ph.attrs.idx } : undefined;
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);

function inLayout(layout: Layout | undefined, ph: { type: string; idx?: string }): Placeholder | undefined {
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

function inMaster(master: Master | undefined, ph: { type: string }): Placeholder | undefined {
  const type = TITLE_TYPES.has(ph.type) ? 'title' : ['dt', 'ftr', 'sldNum', 'hdr'].includes(ph.type) ? ph.type : 'body';
  return master?.placeholders.find((c) => c.type === type);
}

// ---- shapes ----------------------------------------------------------------------------------

interface ShapeContext {
  deck: Deck;
  rels: Map<string, Relationship>;
  layout?: Layout;
}

interface ShapeRef {
  node: XmlNode;
  box?: Box;
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

/** Flattens the shape tree: groups are opened and their children's boxes mapped onto the slide. */
function collectShapes(
  tree: XmlNode | undefined,
  place: (box: Box) => Box,
  out: ShapeRef[],
  context: ShapeContext,
): void {
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
        collectShapes(node, inner, out, context);
        break;
      }
      case 'AlternateContent': {
        const before = out.length;
        collectShapes(child(node, 'Choice'), place, out, context);
        if (out.length === before) collectShapes(child(node, 'Fallback'), place, out, context);
        break;
      }
      default:
        break;
    }
  }
}

async function shapeMarkdown(
  shape: ShapeRef,
  context: ShapeContext,
  ph: { type: string; idx?: string } | undefined,
): Promise<string> {
  const node = shape.node;
  if (node.name === 'sp') return paragraphsMarkdown(paragraphsOf(node, context, ph));
  if (node.name === 'pic') {
    const descr = pathOf(node, 'nvPicPr', 'cNvPr')?.attrs.descr?.trim();
    return descr ? `<!-- image: ${descr.replace(/--/g, '—').replace(/\s+/g, ' ')} -->` : '<!-- image -->';
  }
  const data = pathOf(node, 'graphic', 'graphicData');
  const table = child(data, 'tbl');
  if (table) return tableMarkdown(tableRows(table, context));
  const chartRef = child(data, 'chart');
  if (chartRef) {
    const rel = context.rels.get(nsAttr(chartRef, 'id') ?? '');
    const chart = rel && !rel.external ? await readXmlPart(context.deck.zip, rel.target) : undefined;
    return chart ? chartMarkdown(chart) : '';
  }
  const diagram = child(data, 'relIds');
  if (diagram) {
    const rel = context.rels.get(nsAttr(diagram, 'dm') ?? '');
    const model = rel && !rel.external ? await readXmlPart(context.deck.zip, rel.target) : undefined;
    return diagramMarkdown(model);
  }
  return '';
}

/** SmartArt: the text of its nodes, as a list. */
function diagramMarkdown(model: XmlNode | undefined): string {
  const lines: string[] = [];
  for (const pt of descendants(child(model, 'dataModel'), 'pt')) {
    const type = pt.attrs.type ?? 'node';
    if (type !== 'node' && type !== 'asst') continue;
    const text = childrenNamed(child(pt, 't'), 'p')
      .map((p) => runText(p).trim())
      .filter(Boolean)
      .join(' ');
    if (text) lines.push(`- ${escapeLineStart(escapeText(text))}`);
  }
  return lines.join('\n');
}

/**
 * A table's cells on its grid. Every row holds one cell per grid column; a cell that starts a
 * merge carries its spans, and the cells it covers are marked as continuing a merge.
 */
function tableRows(table: XmlNode, context: ShapeContext): TableCell[][] {
  const trs = childrenNamed(table, 'tr');
  const cells: PlacedCell[] = [];
  let width = 0;
  trs.forEach((tr, row) => {
    const tcs = childrenNamed(tr, 'tc');
    width = Math.max(width, tcs.length);
    tcs.forEach((tc, col) => {
      if (isOn(tc.attrs.hMerge) || isOn(tc.attrs.vMerge)) return;
      cells.push({
        row,
        col,
        rowspan: span(tc.attrs.rowSpan),
        colspan: span(tc.attrs.gridSpan),
        text: paragraphsOf(tc, context, undefined)
          .map((p) => p.inline.trim())
          .filter(Boolean)
          .join('\n'),
      });
    });
  });
  return gridRows(cells, trs.length, width);
}

/** A span attribute: a whole number of rows or columns, at least one. */
function span(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isInteger(n) && n > 1 ? Math.min(n, 1000) : 1;
}

// ---- text --------------------------------------------------------------------------------------

type BulletKind = 'none' | 'bullet' | 'number';

interface Paragraph {
  level: number;
  bullet: BulletKind;
  startAt: number;
  /** Inline Markdown: escaped, with emphasis and links. */
  inline: string;
  plain: string;
}

interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  link?: string;
}

/** The paragraphs of a shape's (or table cell's) text body, with their bullet kinds resolved through the style chain. */
function paragraphsOf(
  node: XmlNode,
  context: ShapeContext,
  ph: { type: string; idx?: string } | undefined,
): Paragraph[] {
  const body = child(node, 'txBody');
  if (!body) return [];
  const layoutPh = ph ? inLayout(context.layout, ph) : undefined;
  const master = context.layout?.master;
  const masterPh = ph ? inMaster(master, ph) : undefined;
  const masterStyle = !ph
    ? master?.otherStyle
    : TITLE_TYPES.has(ph.type)
      ? master?.titleStyle
      : ['dt', 'ftr', 'sldNum', 'hdr'].includes(ph.type)
        ? master?.otherStyle
        : master?.bodyStyle;
  const styles = [child(body, 'lstStyle'), layoutPh?.lstStyle, masterPh?.lstStyle, masterStyle];

  return childrenNamed(body, 'p').map((p) => {
    const pPr = child(p, 'pPr');
    const level = Math.min(8, Math.max(0, Number(pPr?.attrs.lvl ?? 0) || 0));
    const chain = [pPr, ...styles.map((s) => child(s, `lvl${level + 1}pPr`))];
    let bullet: BulletKind = 'none';
    let startAt = 1;
    for (const props of chain) {
      if (!props) continue;
      if (child(props, 'buNone')) break;
      const autoNum = child(props, 'buAutoNum');
      if (autoNum) {
        bullet = 'number';
        startAt = Number(autoNum.attrs.startAt ?? 1) || 1;
        break;
      }
      if (child(props, 'buChar') || child(props, 'buBlip')) {
        bullet = 'bullet';
        break;
      }
    }
    const runs = runsOf(p, context);
    return {
      level,
      bullet,
      startAt,
      inline: inlineMarkdown(runs),
      plain: runs.map((r) => r.text).join(''),
    };
  });
}

function runsOf(p: XmlNode, context: ShapeContext): Run[] {
  const runs: Run[] = [];
  for (const c of p.children) {
    switch (c.name) {
      case 'r':
      case 'fld': {
        const rPr = child(c, 'rPr');
        const linkRel = context.rels.get(nsAttr(child(rPr, 'hlinkClick'), 'id') ?? '');
        runs.push({
          text: textContent(child(c, 't')),
          bold: isOn(rPr?.attrs.b),
          italic: isOn(rPr?.attrs.i),
          link: linkRel?.external && /^(https?|mailto):/i.test(linkRel.target) ? linkRel.target : undefined,
        });
        break;
      }
      case 'br':
        runs.push({ text: '\n', bold: false, italic: false });
        break;
      case 'm':
      case 'AlternateContent': {
        const math = descendants(c, 't')
          .map((t) => textContent(t))
          .join('');
        if (math) runs.push({ text: math, bold: false, italic: false });
        break;
      }
      default:
        break;
    }
  }
  return runs;
}

function isOn(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** A paragraph's runs as inline Markdown: emphasis and escapes by `emphasisMarkdown`, links around them. */
function inlineMarkdown(runs: Run[]): string {
  const tildesPair = tildesCouldPair(runs.map((r) => r.text));
  let out = '';
  for (let i = 0; i < runs.length;) {
    const link = runs[i].link;
    let j = i + 1;
    while (j < runs.length && runs[j].link === link) j++;
    const inner = emphasisMarkdown(
      runs.slice(i, j).map((run, k) => inlineRun(run, following(runs, i + k))),
      { tildesPair },
    );
    if (link && inner.trim() !== '') {
      const lead = /^\s*/.exec(inner)?.[0] ?? '';
      const trail = /\s*$/.exec(inner)?.[0] ?? '';
      out += `${lead}[${inner.trim()}](${link.replace(/[()\s]/g, encodeURIComponent)})${trail}`;
    } else {
      out += inner;
    }
    i = j;
  }
  return out;
}

/** A run as an inline run; `following` (the text after it) decides whether its last characters are syntax. */
function inlineRun(run: Run, following: string): InlineRun {
  if (run.text === '\n') return { kind: 'break', markdown: '\n' };
  return { kind: 'text', text: escapeInlineSyntax(plain(run), following), bold: run.bold, italic: run.italic };
}

/** The start of what the runs after `index` put on the line: enough to tell an entity or a link from text. */
function following(runs: Run[], index: number): string {
  let text = '';
  for (let k = index + 1; k < runs.length && text.length < 40; k++) text += plain(runs[k]);
  return text;
}

function plain(run: Run): string {
  return run.text.replace(/\t/g, ' ');
}

/** Paragraphs to Markdown: plain paragraphs separated by blank lines, bulleted ones as (nested) lists. */
function paragraphsMarkdown(paragraphs: Paragraph[]): string {
  const blocks: string[] = [];
  let list: string[] = [];
  let stack: { level: number; indent: number; childIndent: number; count: number }[] = [];
  const flush = () => {
    if (list.length) blocks.push(list.join('\n'));
    list = [];
    stack = [];
  };
  for (const p of paragraphs) {
    const text = p.inline
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (text.length === 0) continue;
    if (p.bullet === 'none') {
      flush();
      blocks.push(text.map(escapeLineStart).join('\n'));
      continue;
    }
    while (stack.length && stack[stack.length - 1].level > p.level) stack.pop();
    let entry = stack[stack.length - 1];
    if (!entry || entry.level < p.level) {
      const indent = entry ? entry.childIndent : 0;
      entry = { level: p.level, indent, childIndent: indent + 2, count: p.startAt - 1 };
      stack.push(entry);
    }
    let marker = '- ';
    if (p.bullet === 'number') {
      entry.count += 1;
      marker = `${entry.count}. `;
    } else entry.count = 0;
    entry.childIndent = entry.indent + marker.length;
    const continuation = ' '.repeat(entry.childIndent);
    list.push(`${' '.repeat(entry.indent)}${marker}${text.map(escapeLineStart).join(`\n${continuation}`)}`);
  }
  flush();
  return blocks.join('\n\n');
}

// ---- notes and comments ----------------------------------------------------------------------

async function notesMarkdown(deck: Deck, part: string): Promise<string> {
  const notes = await readXmlPart(deck.zip, part);
  const rels = await readRels(deck.zip, part);
  const context: ShapeContext = { deck, rels };
  const shapes: ShapeRef[] = [];
  collectShapes(pathOf(notes, 'notes', 'cSld', 'spTree'), (b) => b, shapes, context);
  const blocks: string[] = [];
  for (const shape of shapes) {
    const ph = placeholderOf(shape.node);
    if (shape.node.name !== 'sp' || (ph && ph.type !== 'body')) continue;
    const markdown = paragraphsMarkdown(paragraphsOf(shape.node, context, undefined));
    if (markdown) blocks.push(markdown);
  }
  return blocks.join('\n\n');
}

async function commentsMarkdown(deck: Deck, rels: Map<string, Relationship>): Promise<string> {
  const lines: string[] = [];
  for (const rel of relsOfType(rels, 'comments')) {
    if (rel.external) continue;
    const list = await readXmlPart(deck.zip, rel.target);
    for (const cm of childrenNamed(child(list, 'cmLst'), 'cm')) {
      lines.push(commentLine(deck, cm, ''));
      for (const reply of descendants(child(cm, 'replyLst'), 'reply')) lines.push(commentLine(deck, reply, '  '));
    }
  }
  return lines.filter(Boolean).join('\n');
}

function commentLine(deck: Deck, cm: XmlNode, indent: string): string {
  const body = child(cm, 'txBody');
  const text = body
    ? childrenNamed(body, 'p')
        .map((p) => runText(p).trim())
        .filter(Boolean)
        .join(' ')
    : textContent(child(cm, 'text')).trim();
  if (!text) return '';
  const author = deck.authors.get(cm.attrs.authorId ?? '');
  const who = author ? `${author.name}${author.initials ? ` (${author.initials})` : ''}` : 'unknown';
  const when = cm.attrs.dt ?? cm.attrs.created;
  const label = `author: ${escapeText(who)}${when ? `, time: ${when}` : ''}`;
  return `${indent}- [${label}] ${escapeText(text.replace(/\s+/g, ' '))}`;
}
