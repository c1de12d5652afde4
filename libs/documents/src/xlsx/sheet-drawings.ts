import type { Block, Provenance } from '@docconv/model';
import { plain } from '@docconv/model';
import type { ZipReader } from '../zip/zip-reader';
import { chartBlocks, readChart } from '../office/charts';
import {
  child,
  childrenNamed,
  descendants,
  nsAttr,
  pathOf,
  readRels,
  readXmlPart,
  pictureComment,
  relsOfType,
  runText,
  textContent,
  type Relationship,
  type XmlNode,
} from '../office/ooxml';
import { columnName } from './sheet-cells';
import { decodeEscapes } from './workbook';

/** Blocks anchored at a cell of a sheet (1-based), to be placed among its tables in reading order. */
export interface Anchored {
  row: number;
  col: number;
  blocks: Block[];
}

/**
 * What a drawing part anchors on a sheet: charts (kept as the Markdown table the OOXML chart
 * reader writes, a raw block), pictures (a raw HTML comment with their description, as before)
 * and text boxes (a paragraph each), at the cell their anchor starts from.
 */
export async function drawingItems(zip: ZipReader, part: string, sheet: Provenance): Promise<Anchored[]> {
  const drawing = child(await readXmlPart(zip, part), 'wsDr');
  const rels = await readRels(zip, part);
  const items: Anchored[] = [];
  for (const anchor of drawing?.children ?? []) {
    if (!anchor.name.endsWith('Anchor')) continue;
    const start = child(anchor, 'from');
    const row = Number(textContent(child(start, 'row')) || 0) + 1;
    const col = Number(textContent(child(start, 'col')) || 0) + 1;
    const from = { ...sheet, cells: `${columnName(col)}${row}` };
    for (const blocks of await anchorContent(zip, anchor, rels, from)) items.push({ row, col, blocks });
  }
  return items;
}

/** The shapes of an anchor (groups and alternate content opened), each as its blocks. */
async function anchorContent(
  zip: ZipReader,
  node: XmlNode,
  rels: Map<string, Relationship>,
  from: Provenance,
): Promise<Block[][]> {
  const out: Block[][] = [];
  for (const shape of node.children) {
    switch (shape.name) {
      case 'graphicFrame': {
        const ref = child(pathOf(shape, 'graphic', 'graphicData'), 'chart');
        const rel = rels.get(nsAttr(ref, 'id') ?? '');
        const chart = rel && !rel.external ? await readXmlPart(zip, rel.target) : undefined;
        if (chart) out.push(chartBlocks(readChart(chart), from));
        break;
      }
      case 'pic': {
        out.push([pictureComment(pathOf(shape, 'nvPicPr', 'cNvPr')?.attrs.descr, from)]);
        break;
      }
      case 'sp': {
        const paragraphs = childrenNamed(child(shape, 'txBody'), 'p')
          .map((p) => runText(p).trim())
          .filter(Boolean)
          .map((text): Block => ({ type: 'paragraph', content: plain(text), from }));
        if (paragraphs.length > 0) out.push(paragraphs);
        break;
      }
      case 'grpSp':
        out.push(...(await anchorContent(zip, shape, rels, from)));
        break;
      case 'AlternateContent':
        out.push(...(await anchorContent(zip, child(shape, 'Choice') ?? shape, rels, from)));
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * Cell notes and threaded comments, as a `### Comments` heading and one list item per comment
 * (`ref (author): text`), each from the cell it is attached to; nothing when there is none.
 */
export async function commentBlocks(
  zip: ZipReader,
  rels: Map<string, Relationship>,
  sheet: Provenance,
): Promise<Block[]> {
  const items: Block[] = [];
  for (const rel of relsOfType(rels, 'comments')) {
    if (rel.external) continue;
    const comments = child(await readXmlPart(zip, rel.target), 'comments');
    const authors = childrenNamed(child(comments, 'authors'), 'author').map((a) => textContent(a).trim());
    for (const comment of descendants(child(comments, 'commentList'), 'comment')) {
      const text = decodeEscapes(runText(child(comment, 'text')))
        .replace(/\s+/g, ' ')
        .trim();
      if (!text) continue;
      const ref = comment.attrs.ref ?? '';
      const author = authors[Number(comment.attrs.authorId ?? -1)];
      items.push({
        type: 'list_item',
        depth: 0,
        content: plain(`${ref}${author ? ` (${author})` : ''}: ${text}`),
        from: ref ? { ...sheet, cells: ref } : sheet,
      });
    }
  }
  if (items.length === 0) return [];
  return [{ type: 'heading', level: 3, content: plain('Comments'), from: sheet }, ...items];
}
