/**
 * The document model: what every reader produces and every writer consumes (Markdown, the
 * structured result, DOCX, XLSX, PPTX, HWPX). It says what the page says, not how Markdown
 * spells it: text is plain (never escaped), emphasis is a property of a run, a table is a grid
 * of cells with spans, and every block carries where it came from. Read docs/document-model.md
 * first. Nothing here depends on anything else.
 */

/** `[left, top, right, bottom]` in the page's units (PDF points; an image's pixels), from its top-left corner. */
export type Box = [number, number, number, number];

/**
 * Where a block came from in its file. `file` is always known; the rest is what the format has:
 * a page and a box (PDF pages, image frames), a slide, a sheet and a cell range, or seconds.
 */
export interface Provenance {
  /** The file's name as the job shows it (an archive's member path). */
  file: string;
  /** PDF page or image frame, from 1. */
  page?: number;
  /** The block's box on its page; absent when the reader did not know it. */
  box?: Box;
  /** A table that goes on over several pages: the pages after `page` it covers. */
  continues?: number[];
  /** Presentations: the slide, from 1. */
  slide?: number;
  /** Spreadsheets: the sheet's name and the cells the block covers (`A1:D20`). */
  sheet?: string;
  cells?: string;
  /** Recordings: where the segment starts and ends, in seconds. */
  seconds?: [number, number];
}

/** Formatting of a stretch of text. */
export interface Style {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  /** Code (monospace, taken literally). */
  code?: boolean;
  /** The target of the link the text belongs to. */
  link?: string;
}

/** Plain text with one formatting. */
export interface TextInline extends Style {
  kind: 'text';
  text: string;
}

/** A line break inside a block. */
export interface BreakInline {
  kind: 'break';
}

/** Inline math, in TeX. */
export interface MathInline {
  kind: 'math';
  tex: string;
}

/** A reference to a footnote (`label` matches the footnote block's). */
export interface NoteInline {
  kind: 'note';
  label: string;
}

/**
 * A picture in running text: where it is stored beside the result (or, for a web page's picture,
 * its address on the web), its alternative text, and the target of the link it belongs to.
 */
export interface ImageInline {
  kind: 'image';
  src: string;
  alt: string;
  link?: string;
}

export type Inline = TextInline | BreakInline | MathInline | NoteInline | ImageInline;

interface BlockBase {
  from: Provenance;
  /**
   * The block's Markdown as a reader not yet ported wrote it, from the end of the block before
   * (separating blank lines included): the Markdown writer copies it so the output stays byte
   * for byte what it was. Readers that build the model never set it.
   */
  written?: string;
}

export interface HeadingBlock extends BlockBase {
  type: 'heading';
  /** 1…6. */
  level: number;
  content: Inline[];
}

export interface ParagraphBlock extends BlockBase {
  type: 'paragraph';
  content: Inline[];
  /** Set apart as a quotation. */
  quote?: boolean;
}

export interface ListItemBlock extends BlockBase {
  type: 'list_item';
  /** Numbered: the item's number; bulleted: absent. */
  number?: number;
  /** What follows a numbered item's number when the document shows `1)` rather than `1.`; absent for `.`. */
  delimiter?: '.' | ')';
  /**
   * Which list the item belongs to, when the reader knows: two lists that follow each other are
   * different lists (Word restarts or switches numbering) though nothing stands between them, and
   * the writer keeps them apart. Absent: the item continues the list before it.
   */
  list?: string;
  /** Nesting depth, 0 for a top-level list. */
  depth: number;
  content: Inline[];
  /** A task list item: checked or not. */
  checked?: boolean;
  /**
   * The item's label as the document prints it, when it is not a bullet or a plain `N.` (`a.`,
   * `(iii)`, `2)`): a reader that sees the label keeps it, since the numbering is the document's.
   */
  marker?: string;
  /**
   * The first item of a list that follows another list with nothing between (a list on the next
   * page, after the first ended a sentence): written apart from it, as a list of its own.
   */
  opens?: boolean;
}

/** One cell of a table, anchored at its top-left slot; the slots its spans cover have no cell. */
export interface Cell {
  content: Inline[];
  rowspan: number;
  colspan: number;
  align?: 'left' | 'center' | 'right';
  /**
   * Where the cell stands, `[left, top, right, bottom]` in its page's units (readers that lay pages
   * out: PDF, OCR), and on which page (a table continued from the page before has cells on both).
   */
  box?: Box;
  page?: number;
  /**
   * Blocks the cell holds beyond its inline content: tables nested in it. Writers that cannot
   * nest write them after the table or flatten them.
   */
  blocks?: Block[];
}

export interface TableBlock extends BlockBase {
  type: 'table';
  /** Rows of the cells anchored in them, left to right. */
  rows: Cell[][];
  /** How many leading rows are header rows. */
  headerRows: number;
  /** The table's caption, when the document gives one. */
  caption?: Inline[];
}

export interface FigureBlock extends BlockBase {
  type: 'figure';
  /** Where the picture is stored beside the result; absent when it was not taken out. */
  src?: string;
  /** Alternative text (or the caption, when the document has one and no alternative text). */
  alt: string;
  caption?: Inline[];
}

export interface FormulaBlock extends BlockBase {
  type: 'formula';
  tex: string;
}

export interface CodeBlock extends BlockBase {
  type: 'code';
  language?: string;
  text: string;
}

export interface FootnoteBlock extends BlockBase {
  type: 'footnote';
  label: string;
  content: Inline[];
}

/**
 * A stretch of a recording's speech (one segment of the speech engine's); `from.seconds` says
 * when. Writers lead it with its start time and speaker (`[01:05] Ann: …`, see transcriptContent).
 */
export interface TranscriptBlock extends BlockBase {
  type: 'transcript';
  /** What was said. */
  content: Inline[];
  /** Who said it, when the engine tells speakers apart (none does yet). */
  speaker?: string;
}

/**
 * Running heads, running feet and page numbers (a PDF's, an office or Hancom document's headers
 * and footers): left out of the Markdown unless `shown`, listed in the structured result. What
 * the upload's `page_furniture` asks for is applied with withPageFurniture.
 */
export interface FurnitureBlock extends BlockBase {
  type: 'furniture';
  role: 'header' | 'footer';
  text: string;
  /** Written in the Markdown where it stands, as a paragraph (`page_furniture=keep`). */
  shown?: boolean;
}

/** A thematic break between parts (slides, sheets, messages). */
export interface SeparatorBlock extends BlockBase {
  type: 'separator';
}

/**
 * A remark of the reader's for whoever reads the Markdown's source, not text of the document: a
 * picture that was not taken out (`image: its description`), a figure's text kept out of the
 * reading order. Markdown writes it as an HTML comment, which renders as nothing.
 */
export interface CommentBlock extends BlockBase {
  type: 'comment';
  text: string;
}

/** Markup the model has no block for, kept as it was written (raw HTML in a Markdown upload). */
export interface RawBlock extends BlockBase {
  type: 'raw';
  text: string;
}

export type Block =
  | HeadingBlock
  | ParagraphBlock
  | ListItemBlock
  | TableBlock
  | FigureBlock
  | FormulaBlock
  | CodeBlock
  | FootnoteBlock
  | TranscriptBlock
  | FurnitureBlock
  | SeparatorBlock
  | CommentBlock
  | RawBlock;

export type BlockKind = Block['type'];

/** One file's document: its blocks in reading order. */
export interface Document {
  version: 1;
  blocks: Block[];
  /** What the Markdown ends with after the last block, for a reader not yet ported (see `written`). */
  trailing?: string;
}

/** The plain text of inline content: math as its TeX, a picture as its alternative text, a break as a newline. */
export function contentText(content: readonly Inline[]): string {
  return content
    .map((inline) => {
      switch (inline.kind) {
        case 'text':
          return inline.text;
        case 'break':
          return '\n';
        case 'math':
          return inline.tex;
        case 'note':
          return '';
        case 'image':
          return inline.alt;
      }
    })
    .join('');
}

/** Plain text as inline content (nothing when it is empty). */
export function plain(text: string, style: Style = {}): Inline[] {
  return text === '' ? [] : [{ kind: 'text', text, ...style }];
}

/** Whether inline content shows anything: text other than spaces, math, a note or a picture. */
export function shows(content: readonly Inline[]): boolean {
  return content.some((inline) => (inline.kind === 'text' ? /\S/.test(inline.text) : inline.kind !== 'break'));
}

/** Inline content with a space between each non-empty part. */
export function joined(parts: Inline[][]): Inline[] {
  const out: Inline[] = [];
  for (const part of parts.filter(shows)) {
    if (out.length > 0) out.push({ kind: 'text', text: ' ' });
    out.push(...part);
  }
  return out;
}
