import { joined, shows, type Block, type Cell, type Inline, type Provenance } from '@docconv/model';
import { chartBlocks, chartLines, type Chart } from '../office/charts';
import type { ListLabel } from './docx-numbering';

/**
 * A block of a Word document as the reader meets it, before the document is laid out: a
 * paragraph still knows its heading level, title style and list level, which become model
 * blocks once the whole body is known (a title shifts the headings; list levels become depths).
 */
export type DocxBlock =
  | {
      type: 'paragraph';
      content: Inline[];
      heading?: number;
      title: boolean;
      quote: boolean;
      list?: { ilvl: number; label: ListLabel };
    }
  | { type: 'math'; tex: string }
  | { type: 'table'; rows: Cell[][]; headerRows: number }
  | { type: 'chart'; chart: Chart };

/**
 * Blocks as one line of inline content, for a table cell or a note: paragraphs one after the
 * other with their list labels (`1. `, `• `), line breaks as spaces, equations inline, a table
 * as its cells' content in reading order.
 */
export function flatten(blocks: DocxBlock[]): Inline[] {
  return joined(
    blocks.map((block): Inline[] => {
      switch (block.type) {
        case 'math':
          return [{ kind: 'math', tex: block.tex }];
        case 'table':
          return joined(block.rows.flatMap((row) => row.map((cell) => cell.content)));
        case 'chart':
          return joined(chartLines(block.chart));
        case 'paragraph':
          return labelled(
            block,
            block.content.map((inline): Inline => (inline.kind === 'break' ? space : inline)),
          );
      }
    }),
  );
}

/**
 * Blocks as the lines of a table cell: each paragraph on a line of its own with its list label
 * (`1. `, `• `) and its line breaks, each equation on its own line. Tables and charts are not
 * lines: a cell holds its tables as blocks, and its charts follow the table.
 */
export function cellLines(blocks: DocxBlock[]): Inline[] {
  const lines = blocks
    .flatMap((block): Inline[][] => {
      switch (block.type) {
        case 'math':
          return [[{ kind: 'math', tex: block.tex }]];
        case 'paragraph':
          return [labelled(block, block.content)];
        default:
          return [];
      }
    })
    .filter(shows);
  return lines.flatMap((line, i): Inline[] => (i === 0 ? line : [{ kind: 'break' }, ...line]));
}

/** A paragraph's content after its list label (`1. `, `• `), when it has one. */
function labelled(block: Extract<DocxBlock, { type: 'paragraph' }>, content: Inline[]): Inline[] {
  const label = block.list?.label;
  const marker = !label ? '' : label.kind === 'ordered' ? `${label.number}${label.delimiter} ` : '• ';
  return marker === '' ? content : [{ kind: 'text', text: marker }, ...content];
}

const space: Inline = { kind: 'text', text: ' ' };

/**
 * The body's blocks as model blocks. A document with a title style writes the title as the
 * one top-level heading and every heading a level lower (at most 6). A list paragraph becomes
 * a list item whose depth is how many items of lower list levels it sits under since the last
 * block that is not a list item; a label Markdown cannot number (`1.2.1`, `(a)`) starts the
 * text of a bulleted item.
 */
export function modelBlocks(blocks: DocxBlock[], from: Provenance): Block[] {
  const shift = blocks.some((b) => b.type === 'paragraph' && b.title) ? 1 : 0;
  const out: Block[] = [];
  let levels: number[] = [];
  for (const block of blocks) {
    if (block.type === 'paragraph' && block.list) {
      const { ilvl, label } = block.list;
      while (levels.length > 0 && (levels.at(-1) ?? 0) >= ilvl) levels.pop();
      const depth = levels.length;
      levels.push(ilvl);
      const ordered = label.kind === 'ordered';
      out.push({
        type: 'list_item',
        from,
        depth,
        list: label.listKey,
        ...(ordered ? { number: label.number, delimiter: label.delimiter } : {}),
        content: block.content,
      });
      continue;
    }
    levels = [];
    switch (block.type) {
      case 'math':
        out.push({ type: 'formula', from, tex: block.tex });
        break;
      case 'table':
        out.push({ type: 'table', from, rows: block.rows, headerRows: block.headerRows });
        break;
      case 'chart':
        out.push(...chartBlocks(block.chart, from));
        break;
      case 'paragraph':
        if (block.title) out.push({ type: 'heading', from, level: 1, content: block.content });
        else if (block.heading !== undefined)
          out.push({ type: 'heading', from, level: Math.min(6, block.heading + shift), content: block.content });
        else out.push({ type: 'paragraph', from, content: block.content, ...(block.quote ? { quote: true } : {}) });
        break;
    }
  }
  return out;
}

/** A run of a heading: not bold, since the heading says it. */
export function unbold(inline: Inline): Inline {
  if (inline.kind !== 'text' || !inline.bold) return inline;
  const plain = { ...inline };
  delete plain.bold;
  return plain;
}
