/**
 * What the HWP and HWPX readers make of a document, and all `hancomDocument` reads to build the
 * document model: one model for both formats, so that an HWP file and its HWPX twin are written
 * the same way.
 *
 * The readers resolve everything that depends on the file's style tables (heading levels,
 * outline and list numbers as Hancom displays them, bold and italic), so the model holds only
 * what a reader of the page sees. Text is kept as the file has it: `hancomDocument` maps Hancom's
 * private-use characters and numbers the notes.
 */

import type { Chart } from '../office/charts';

export interface HancomDocument {
  sections: HancomSection[];
}

export interface HancomSection {
  blocks: Block[];
  /** Text of the page headers and footers this section defines, each as its paragraphs (page-number fields left out). */
  headers: Block[][];
  footers: Block[][];
}

export type Block = Paragraph | Table;

export interface Paragraph {
  type: 'paragraph';
  role: ParagraphRole;
  /** The number or bullet Hancom draws before the paragraph (`1.`, `가.`, `1)`, `①`, `•`), or `''`. */
  label: string;
  inlines: Inline[];
  /** The paragraph starts a new page (a page or section break before it). */
  pageBreak?: boolean;
}

/** Heading (outline level 1 … 6, or a title style), list item (bullet or number, nesting level from 0), or body text. */
export type ParagraphRole =
  { kind: 'body' } | { kind: 'heading'; level: number } | { kind: 'list'; level: number; ordered: boolean };

export type Inline =
  | TextInline
  | { type: 'break' }
  | { type: 'note'; kind: 'footnote' | 'endnote'; blocks: Block[] }
  | { type: 'link'; href: string; inlines: Inline[] }
  /** An equation as Hancom's equation script. */
  | { type: 'equation'; script: string }
  /** A picture, with the description its author gave it (`''` for none) and its caption. */
  | { type: 'image'; alt: string; caption?: Caption }
  /** A table anchored in the paragraph, inline or floating. */
  | { type: 'table'; table: Table }
  /** Text an object anchored in the paragraph carries: a text box, a shape's or chart's caption. */
  | { type: 'objects'; blocks: Block[] }
  /** A chart (an OOXML chart part the file embeds): title, kind, data. */
  | { type: 'chart'; chart: Chart };

export interface TextInline {
  type: 'text';
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  superscript?: boolean;
  subscript?: boolean;
}

export interface Table {
  type: 'table';
  rows: number;
  cols: number;
  /** Cells by their top-left slot, counted from 0, in document order. */
  cells: TableCell[];
  caption?: Caption;
}

export interface TableCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  blocks: Block[];
}

export interface Caption {
  /** Hancom draws the caption above (or left of) the object rather than below it. */
  before: boolean;
  blocks: Block[];
}
