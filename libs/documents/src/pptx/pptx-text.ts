import {
  linkDestination,
  type Block,
  type Inline,
  type ListItemBlock,
  type ParagraphBlock,
  type Provenance,
  contentText,
} from '@docconv/model';
import { type XmlNode, child, childrenNamed, descendants, textContent, nsAttr } from '../office/ooxml';
import {
  FURNITURE_TYPES,
  TITLE_TYPES,
  inLayout,
  inMaster,
  isOn,
  type PlaceholderRef,
  type ShapeContext,
} from './pptx-deck';

/**
 * The text of a shape or table cell: its paragraphs as runs (bold, italic, links; line breaks),
 * each with its outline level and the bullet the style chain gives it (the paragraph's own
 * properties, then the shape's, the layout's and the master's list styles), and those
 * paragraphs as model blocks: plain paragraphs, bulleted and numbered ones as list items.
 */

type BulletKind = 'none' | 'bullet' | 'number';

export interface Paragraph {
  /** Outline level, 0…8. */
  level: number;
  bullet: BulletKind;
  /** The number of the first item of a numbered list. */
  startAt: number;
  content: Inline[];
}

/** The paragraphs of a shape's (or table cell's) text body, with their bullet kinds resolved through the style chain. */
export function paragraphsOf(node: XmlNode, context: ShapeContext, ph: PlaceholderRef | undefined): Paragraph[] {
  const body = child(node, 'txBody');
  if (!body) return [];
  const layoutPh = ph ? inLayout(context.layout, ph) : undefined;
  const master = context.layout?.master;
  const masterPh = ph ? inMaster(master, ph) : undefined;
  const masterStyle = !ph
    ? master?.otherStyle
    : TITLE_TYPES.has(ph.type)
      ? master?.titleStyle
      : FURNITURE_TYPES.has(ph.type)
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
    return { level, bullet, startAt, content: runsOf(p, context) };
  });
}

/** A paragraph's runs: text with its bold, italic and (followable) link; `a:br` as a break; equations as their text. */
function runsOf(p: XmlNode, context: ShapeContext): Inline[] {
  const runs: Inline[] = [];
  for (const c of p.children) {
    switch (c.name) {
      case 'r':
      case 'fld': {
        const rPr = child(c, 'rPr');
        const linkRel = context.rels.get(nsAttr(child(rPr, 'hlinkClick'), 'id') ?? '');
        const link = linkRel?.external ? linkDestination(linkRel.target) : undefined;
        const text = textContent(child(c, 't'));
        if (text === '') break;
        runs.push({
          kind: 'text',
          text,
          ...(isOn(rPr?.attrs.b) && { bold: true }),
          ...(isOn(rPr?.attrs.i) && { italic: true }),
          ...(link !== undefined && { link }),
        });
        break;
      }
      case 'br':
        runs.push({ kind: 'break' });
        break;
      case 'm':
      case 'AlternateContent': {
        const math = descendants(c, 't')
          .map((t) => textContent(t))
          .join('');
        if (math) runs.push({ kind: 'text', text: math });
        break;
      }
      default:
        break;
    }
  }
  return runs;
}

/** Whether inline content shows nothing but blanks. */
export function isBlank(content: readonly Inline[]): boolean {
  return contentText(content).trim() === '';
}

/**
 * Paragraphs as blocks: plain paragraphs, and bulleted or numbered ones as list items nested by
 * outline level. A level deeper than the item before nests one step under it, whatever levels it
 * skips; a numbered item counts on from the one before at its level (from the list's `startAt`),
 * and a bullet in between starts the count again. Paragraphs with no text are left out.
 */
export function paragraphBlocks(paragraphs: Paragraph[], from: Provenance): Block[] {
  const blocks: Block[] = [];
  let stack: { level: number; count: number }[] = [];
  for (const p of paragraphs) {
    if (isBlank(p.content)) continue;
    if (p.bullet === 'none') {
      stack = [];
      blocks.push({ type: 'paragraph', from, content: p.content } satisfies ParagraphBlock);
      continue;
    }
    while (stack.length && stack[stack.length - 1].level > p.level) stack.pop();
    let entry = stack[stack.length - 1];
    if (!entry || entry.level < p.level) {
      entry = { level: p.level, count: p.startAt - 1 };
      stack.push(entry);
    }
    const item: ListItemBlock = { type: 'list_item', from, depth: stack.length - 1, content: p.content };
    if (p.bullet === 'number') item.number = ++entry.count;
    else entry.count = 0;
    blocks.push(item);
  }
  return blocks;
}
