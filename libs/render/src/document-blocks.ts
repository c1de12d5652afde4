import { withoutDroppedCharacters } from '@docconv/characters';
import {
  transcriptContent,
  type Block as ModelBlock,
  type Cell,
  type Document,
  type Inline,
  type ListItemBlock as ModelListItem,
} from '@docconv/model';
import { htmlSegments } from './html-tables';
import { contentText, mergeAdjacentRuns, readMarkdown, runsText, withoutStrayMarkers } from '@docconv/model';
import { trimRuns, type InlineRun } from './markdown-tree';
import { tableFromCells, tableFromHtml, type Table } from './table-model';
export interface HeadingBlock {
  kind: 'heading';
  depth: number;
  runs: InlineRun[];
  text: string;
}

export interface ParagraphBlock {
  kind: 'paragraph';
  runs: InlineRun[];
  text: string;
  /** Inside a block quote. */
  quote: boolean;
}

export interface ListItemBlock {
  kind: 'listItem';
  ordered: boolean;
  /** Nesting depth, 0 for a top-level list. */
  level: number;
  /** Identifies the list the item belongs to, so numbering restarts with each list. */
  list: number;
  /** The list's first number (ordered lists). */
  start: number;
  /** The item's own number: `start` plus its position in the list. */
  number: number;
  runs: InlineRun[];
  text: string;
}

export interface CodeBlock {
  kind: 'code';
  lang: string | null;
  text: string;
}

export interface TableBlock {
  kind: 'table';
  table: Table;
}

export interface RuleBlock {
  kind: 'rule';
}

/** The document as a flat sequence of blocks, which is all the renderers need from the model. */
export type Block = HeadingBlock | ParagraphBlock | ListItemBlock | CodeBlock | TableBlock | RuleBlock;

/**
 * The render blocks of a document model: the one place that says how each kind of model block is written by
 * the office renderers. Text is made safe for XML here (every office format is XML inside). Table cells keep
 * their runs and spans; raw HTML becomes its tables and the text around them; page furniture is left out;
 * a footnote becomes a paragraph `[^label]: …` (DOCX turns it into a Word footnote); a figure is a paragraph
 * holding its picture; math keeps its TeX between dollars. Empty paragraphs are left out.
 */
export function documentBlocks(document: Document): Block[] {
  const out: Block[] = [];
  const lists = new ListTracker();
  for (const block of document.blocks) {
    if (block.type === 'list_item') out.push(lists.item(block));
    else {
      lists.end();
      pushBlock(block, out);
    }
  }
  return out;
}

function pushBlock(block: Exclude<ModelBlock, ModelListItem>, out: Block[]): void {
  switch (block.type) {
    case 'heading': {
      const runs = blockRuns(block.content);
      out.push({ kind: 'heading', depth: block.level, runs, text: runsText(runs).trim() });
      return;
    }
    case 'paragraph':
      pushParagraph(blockRuns(block.content), block.quote === true, out);
      return;
    case 'transcript':
      pushParagraph(blockRuns(transcriptContent(block)), false, out);
      return;
    case 'footnote':
      pushParagraph(
        [...plainRuns(`[^${withoutDroppedCharacters(block.label)}]: `), ...blockRuns(block.content)],
        false,
        out,
      );
      return;
    case 'table':
      if (block.caption) pushParagraph(blockRuns(block.caption), false, out);
      out.push({ kind: 'table', table: modelTable(block.rows, block.headerRows) });
      return;
    case 'figure': {
      const alt = withoutDroppedCharacters(block.alt);
      pushParagraph(block.src === undefined ? plainRuns(alt) : [imageRun(block.src, alt)], false, out);
      if (block.caption && block.src !== undefined) pushParagraph(blockRuns(block.caption), false, out);
      return;
    }
    case 'formula':
      pushParagraph(plainRuns(withoutDroppedCharacters(`$$\n${block.tex}\n$$`)), false, out);
      return;
    case 'code':
      out.push({ kind: 'code', lang: block.language ?? null, text: withoutDroppedCharacters(block.text) });
      return;
    case 'separator':
      out.push({ kind: 'rule' });
      return;
    case 'comment':
      // A remark for the Markdown's source (an HTML comment there): nothing a reader of the page sees.
      return;
    case 'raw': {
      // Raw HTML (a table in a Markdown upload): its tables as tables, its text as text.
      if (/^\s*</.test(block.text)) {
        pushHtml(block.text, out);
        return;
      }
      // Markdown a stored document holds as written (a chart, in documents stored before charts had blocks).
      const lists = new ListTracker();
      for (const inner of readMarkdown(block.text, block.from.file).blocks) {
        if (inner.type === 'list_item') {
          out.push(lists.item(inner));
          continue;
        }
        lists.end();
        if (inner.type === 'raw') pushHtml(inner.text, out);
        else if (inner.type !== 'figure' || inner.src !== undefined) pushBlock(inner, out);
      }
      return;
    }
    case 'furniture':
      return;
  }
}

/** Raw HTML: its tables as tables, the rest as its text. */
function pushHtml(html: string, out: Block[]): void {
  for (const segment of htmlSegments(withoutDroppedCharacters(html))) {
    if (segment.kind === 'table') out.push({ kind: 'table', table: tableFromHtml(segment.table) });
    else pushParagraph(plainRuns(segment.text), false, out);
  }
}

function pushParagraph(runs: InlineRun[], quote: boolean, out: Block[]): void {
  const trimmed = trimRuns(runs);
  if (trimmed.length > 0) out.push({ kind: 'paragraph', runs: trimmed, text: runsText(trimmed), quote });
}

/**
 * A model table on the render grid: each cell's runs (trimmed) and its spans. Office tables do
 * not nest: a table nested in a cell is its text there, a row a line, as the cell shows it.
 */
function modelTable(rows: Cell[][], headerRows: number): Table {
  const cells = rows.map((row) =>
    row.map((cell) => ({
      // A picture in a cell is its alternative text there, as the office tables have always shown it.
      runs: trimRuns([...blockRuns(cell.content).map(withoutPicture), ...nestedRuns(cell.blocks ?? [])]),
      rowspan: cell.rowspan,
      colspan: cell.colspan,
    })),
  );
  return tableFromCells(cells, headerRows);
}

/**
 * Numbers the items of the document's lists. A list is a run of items; inside it, an item deeper than the one
 * before opens a nested list, and an item at a depth already open continues that list unless it switches
 * between bullets and numbers. Each list gets its own id, so its numbering restarts.
 */
class ListTracker {
  private open: { id: number; ordered: boolean; start: number; count: number }[] = [];
  private nextId = 0;

  item(item: ModelListItem): ListItemBlock {
    const ordered = item.number !== undefined;
    const depth = Math.min(item.depth, this.open.length);
    const current = this.open[depth];
    this.open = this.open.slice(0, depth + 1);
    const list =
      current !== undefined && current.ordered === ordered
        ? current
        : { id: this.nextId++, ordered, start: item.number ?? 1, count: 0 };
    this.open[depth] = list;
    list.count++;
    const box = item.checked === undefined ? [] : plainRuns(item.checked ? '☑ ' : '☐ ');
    const runs = [...box, ...trimRuns(blockRuns(item.content))];
    return {
      kind: 'listItem',
      ordered,
      level: item.depth,
      list: list.id,
      start: list.start,
      number: item.number ?? list.start + list.count - 1,
      runs,
      text: runsText(runs),
    };
  }

  end(): void {
    this.open = [];
  }
}

/**
 * Inline content as render runs: text outside code without the `**` and `~~` of markup that failed (see
 * `withoutStrayMarkers`: never text a reader should see in an office file), a break a `\n` run, math its
 * TeX between dollars, a note reference `[^label]` (as footnotes are matched in DOCX), a picture a run
 * holding it with its alt text.
 */
export function blockRuns(content: readonly Inline[]): InlineRun[] {
  const runs = content.map((inline): InlineRun => {
    switch (inline.kind) {
      case 'text':
        return {
          text: inline.code
            ? withoutDroppedCharacters(inline.text)
            : withoutStrayMarkers(withoutDroppedCharacters(inline.text)),
          bold: inline.bold === true,
          italic: inline.italic === true,
          strike: inline.strike === true,
          code: inline.code === true,
          link: inline.link ?? null,
        };
      case 'break':
        return plainRun('\n');
      case 'math':
        return plainRun(withoutDroppedCharacters(`$${inline.tex}$`));
      case 'note':
        return plainRun(`[^${withoutDroppedCharacters(inline.label)}]`);
      case 'image':
        return { ...imageRun(inline.src, withoutDroppedCharacters(inline.alt)), link: inline.link ?? null };
    }
  });
  return mergeAdjacentRuns(runs);
}

function imageRun(src: string, alt: string): InlineRun {
  return { ...plainRun(alt), image: { src, alt } };
}

function plainRun(text: string): InlineRun {
  return { text, bold: false, italic: false, strike: false, code: false, link: null };
}

function plainRuns(text: string): InlineRun[] {
  return text === '' ? [] : [plainRun(text)];
}

/** The text of the heading that comes last before each table, for naming sheets and slides. */
export function nearestHeadings(blocks: Block[]): Map<TableBlock, string | null> {
  const headings = new Map<TableBlock, string | null>();
  let heading: string | null = null;
  for (const block of blocks) {
    if (block.kind === 'heading') heading = block.text;
    else if (block.kind === 'table') headings.set(block, heading);
  }
  return headings;
}

/** The tables nested in a cell as lines of text: a row a line, its cells' text between spaces. */
function nestedRuns(blocks: readonly ModelBlock[]): InlineRun[] {
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'table') continue;
    for (const row of block.rows) {
      const texts = row.map((cell) => contentText(cell.content).trim()).filter((text) => text !== '');
      if (texts.length > 0) lines.push(texts.join(' '));
      for (const cell of row)
        lines.push(
          ...runsText(nestedRuns(cell.blocks ?? []))
            .split('\n')
            .filter(Boolean),
        );
    }
  }
  return lines.length === 0 ? [] : plainRuns(withoutDroppedCharacters(`\n${lines.join('\n')}`));
}

/** A run as text: a picture's run keeps its alternative text, without the picture. */
function withoutPicture(run: InlineRun): InlineRun {
  if (!run.image) return run;
  const text: InlineRun = { ...run };
  delete text.image;
  return text;
}
