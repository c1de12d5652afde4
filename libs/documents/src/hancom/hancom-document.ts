import {
  asFurniture,
  inlineMarkdown,
  joined,
  linkDestination,
  shows,
  writeMarkdown,
  type Block as ModelBlock,
  type Document,
  type FootnoteBlock,
  type Inline as ModelInline,
  type Provenance,
} from '@docconv/model';
import { chartBlocks, chartLines, type Chart } from '../office/charts';
import { equationInline } from './equation';
import { tableRows } from './hancom-tables';
import type { Block, Caption, HancomDocument, Inline, Paragraph, Table } from './model';
import { mapPrivateUse } from './private-use';

/** A heading longer than this (as Markdown) is a paragraph set in a heading style, kept as body text. */
const MAX_HEADING_CHARS = 120;

/**
 * Hancom's own text for a picture with no description of its author's ("그림입니다. 원본 그림의
 * 이름: …"): a placeholder, not the author's words.
 */
const GENERATED_ALT = /^\s*그림입니다/;

/** Nesting deeper than this is written at this depth. */
const MAX_LIST_DEPTH = 5;

/**
 * The document model of an HWP or HWPX document read into the Hancom model, `from` the file
 * (Hancom files say nothing of pages). Paragraphs in document order; outline paragraphs as
 * headings; numbered paragraphs as body text that starts with the number Hancom draws (`3.`,
 * `가)`, `①`: what the page says, which no Markdown renderer would renumber); bulleted paragraphs
 * as list items; tables with their spans and captions; pictures with their author's description
 * as figures; equations as inline math; text boxes and charts after the paragraph they are
 * anchored in; footnotes and endnotes numbered in the order of their references, at the end. A
 * page or section break is a separator. The page headers and footers are page furniture, each
 * distinct one once (headers before the body, footers after it), without the blocks that hold
 * only a page number: the job's `page_furniture` says whether the Markdown shows them. Tables with no text in any cell are left out (their captions stay). Hancom's
 * private-use characters are mapped to Unicode (`mapPrivateUse`).
 */
export function hancomDocument(document: HancomDocument, file: string): Document {
  const builder = new HancomBlocks({ file });
  const headers = furniture(document.sections.flatMap((s) => s.headers).map((blocks) => builder.blocks(blocks)));
  const sections = document.sections.map((s) => builder.blocks(s.blocks)).filter((blocks) => blocks.length > 0);
  const footers = furniture(document.sections.flatMap((s) => s.footers).map((blocks) => builder.blocks(blocks)));
  const body = sections.flatMap((blocks, i) => (i === 0 ? blocks : [builder.separator(), ...blocks]));
  return {
    version: 1,
    blocks: nested([
      ...asFurniture(headers.flat(), 'header'),
      ...body,
      ...asFurniture(footers.flat(), 'footer'),
      ...builder.notes,
    ]),
  };
}

/**
 * Headers or footers as kept once: each distinct one (by what it writes) once, without the blocks
 * that held nothing but a page number (`- 3 -` loses its number and keeps no letter or digit).
 */
function furniture(groups: ModelBlock[][]): ModelBlock[][] {
  const seen = new Set<string>();
  const kept: ModelBlock[][] = [];
  for (const group of groups) {
    const blocks = group.filter((block) => /[\p{L}\p{N}]/u.test(writeMarkdown({ version: 1, blocks: [block] })));
    const key = writeMarkdown({ version: 1, blocks });
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(blocks);
  }
  return kept;
}

/**
 * List items nested by their Hancom levels relative to the items before them: an item is one
 * deeper than the nearest item before it of a lower level, and a list starts at the top (a
 * level-2 bullet after body text is a top-level item, not indented code).
 */
function nested(blocks: ModelBlock[]): ModelBlock[] {
  /** The Hancom levels of the items the next one may nest under, outermost first. */
  const open: number[] = [];
  return blocks.map((block) => {
    if (block.type !== 'list_item') {
      open.length = 0;
      return block;
    }
    while (open.length > 0 && open[open.length - 1] >= block.depth) open.pop();
    const depth = open.length;
    open.push(block.depth);
    return depth === block.depth ? block : { ...block, depth };
  });
}

/** Builds model blocks from Hancom blocks, gathering the notes their references number. */
class HancomBlocks {
  /** Footnotes and endnotes, in the order their references are met. */
  readonly notes: FootnoteBlock[] = [];

  constructor(private readonly from: Provenance) {}

  separator(): ModelBlock {
    return { type: 'separator', from: this.from };
  }

  /** Blocks in order; a page break before a paragraph is a separator (never first, last or doubled). */
  blocks(blocks: Block[]): ModelBlock[] {
    const out: ModelBlock[] = [];
    for (const block of blocks) {
      if (block.type === 'table') {
        out.push(...this.table(block));
        continue;
      }
      if (block.pageBreak && out.length > 0 && out[out.length - 1].type !== 'separator') out.push(this.separator());
      out.push(...this.paragraph(block));
    }
    while (out[out.length - 1]?.type === 'separator') out.pop();
    return out;
  }

  /**
   * A paragraph on the page: its text, cut where a table anchored in it stands, then what its
   * other objects carry (text boxes, charts, pictures and their captions).
   */
  private paragraph(paragraph: Paragraph): ModelBlock[] {
    const out: ModelBlock[] = [];
    const anchored: ModelBlock[] = [];
    let content: ModelInline[] = [];
    const flush = (): void => {
      const block = this.textBlock(content, paragraph, out.length === 0);
      if (block) out.push(block);
      content = [];
    };
    for (const inline of paragraph.inlines) {
      if (inline.type === 'table') {
        flush();
        out.push(...this.table(inline.table));
      } else if (inline.type === 'objects') {
        anchored.push(...this.blocks(inline.blocks));
      } else if (inline.type === 'chart') {
        anchored.push(...chartBlocks(mappedChart(inline.chart), this.from));
      } else if (inline.type === 'image') {
        anchored.push(...this.image(inline.alt, inline.caption));
      } else {
        content.push(...this.inlines(inline));
      }
    }
    flush();
    return [...out, ...anchored];
  }

  /** One stretch of a paragraph's text as a block, in the paragraph's role when it is the first; nothing when it shows nothing. */
  private textBlock(content: ModelInline[], paragraph: Paragraph, first: boolean): ModelBlock | undefined {
    if (!shows(content)) return undefined; // an empty numbered paragraph's number alone says nothing
    const role = first ? paragraph.role : { kind: 'body' as const };
    const label = first ? mapPrivateUse(paragraph.label) : '';
    const labelled: ModelInline[] = label === '' ? content : [{ kind: 'text', text: `${label} ` }, ...content];
    if (role.kind === 'heading') {
      const line = labelled.map((inline): ModelInline =>
        inline.kind === 'break' ? { kind: 'text', text: ' ' } : inline,
      );
      if (inlineMarkdown(line).length <= MAX_HEADING_CHARS)
        return { type: 'heading', level: role.level, content: line, from: this.from };
    }
    if (role.kind === 'list' && !role.ordered)
      return { type: 'list_item', depth: Math.min(role.level, MAX_LIST_DEPTH), content, from: this.from };
    return { type: 'paragraph', content: labelled, from: this.from };
  }

  /** One Hancom inline as model inlines: text with its emphasis, breaks, math, note references and links. */
  private inlines(inline: Exclude<Inline, { type: 'table' | 'objects' | 'chart' | 'image' }>): ModelInline[] {
    switch (inline.type) {
      case 'text': {
        const run: ModelInline = { kind: 'text', text: mapPrivateUse(inline.text) };
        if (inline.bold) run.bold = true;
        if (inline.italic) run.italic = true;
        if (inline.strike) run.strike = true;
        return [run];
      }
      case 'break':
        return [{ kind: 'break' }];
      case 'equation': {
        // An equation stands apart from the words around it, as Hancom sets it.
        const math = equationInline(mapPrivateUse(inline.script));
        return math ? [{ kind: 'text', text: ' ' }, math, { kind: 'text', text: ' ' }] : [];
      }
      case 'note': {
        const label = String(this.notes.length + 1);
        const note: FootnoteBlock = { type: 'footnote', label, content: [], from: this.from };
        this.notes.push(note);
        note.content = joined(this.cellLines(inline.blocks));
        return [{ kind: 'note', label }];
      }
      case 'link': {
        // An address a reader cannot follow (javascript:, file:) leaves the text unlinked.
        const href = linkDestination(inline.href);
        return inline.inlines.flatMap((inner) =>
          inner.type === 'table' || inner.type === 'objects' || inner.type === 'chart' || inner.type === 'image'
            ? []
            : this.inlines(inner).map((run) =>
                run.kind === 'text' && href !== undefined ? { ...run, link: href } : run,
              ),
        );
      }
    }
  }

  /** A picture with its author's description as a figure, and its caption on the side Hancom draws it. */
  private image(alt: string, caption: Caption | undefined): ModelBlock[] {
    const description = mapPrivateUse(alt).replace(/\s+/g, ' ').trim();
    const figure: ModelBlock[] =
      description === '' || GENERATED_ALT.test(description)
        ? []
        : [{ type: 'figure', alt: description, from: this.from }];
    const captionBlocks = caption ? this.blocks(caption.blocks) : [];
    return caption?.before ? [...captionBlocks, ...figure] : [...figure, ...captionBlocks];
  }

  /** A table with its caption; a table whose cells hold no text is left out, its caption kept. */
  private table(table: Table): ModelBlock[] {
    const caption = table.caption ? this.blocks(table.caption.blocks) : [];
    const rows = tableRows(table, (blocks) => joinedLines(this.cellLines(blocks)));
    const grid: ModelBlock[] = rows ? [{ type: 'table', rows, headerRows: 1, from: this.from }] : [];
    return table.caption?.before ? [...caption, ...grid] : [...grid, ...caption];
  }

  /**
   * Blocks inside a table cell or a note as lines of inline content, one per line of text: a
   * bullet or number before its paragraph, a nested table's or a chart's rows as lines of cells
   * joined by spaces, the text of objects after their paragraph. Pictures are left out.
   */
  private cellLines(blocks: Block[]): ModelInline[][] {
    const lines: ModelInline[][] = [];
    for (const block of blocks) {
      if (block.type === 'table') {
        lines.push(...this.flatTable(block));
        continue;
      }
      let content: ModelInline[] = [];
      const nested: ModelInline[][] = [];
      const flush = (): void => {
        lines.push(...splitLines(content));
        content = [];
      };
      for (const inline of block.inlines) {
        if (inline.type === 'table') {
          flush();
          lines.push(...this.flatTable(inline.table));
        } else if (inline.type === 'objects') {
          nested.push(...this.cellLines(inline.blocks));
        } else if (inline.type === 'chart') {
          nested.push(...chartLines(mappedChart(inline.chart)));
        } else if (inline.type !== 'image') {
          content.push(...this.inlines(inline));
        }
      }
      const start = lines.length;
      flush();
      const label = block.role.kind === 'list' && !block.role.ordered ? '-' : mapPrivateUse(block.label);
      if (label !== '' && lines.length > start) lines[start] = [{ kind: 'text', text: `${label} ` }, ...lines[start]];
      lines.push(...nested);
    }
    return lines.filter(shows);
  }

  /** A table inside a cell or note as lines of text: a row's cells joined by spaces, the caption on its side. */
  private flatTable(table: Table): ModelInline[][] {
    const rows = tableRows(table, (blocks) => joinedLines(this.cellLines(blocks))) ?? [];
    const caption = table.caption ? this.cellLines(table.caption.blocks) : [];
    const lines = rows.map((row) => joined(row.map((cell) => oneLine(cell.content)))).filter(shows);
    return table.caption?.before ? [...caption, ...lines] : [...lines, ...caption];
  }
}

/** Inline content cut at its breaks into lines, without the lines that show nothing. */
function splitLines(content: ModelInline[]): ModelInline[][] {
  const lines: ModelInline[][] = [[]];
  for (const inline of content) {
    if (inline.kind === 'break') lines.push([]);
    else lines[lines.length - 1].push(inline);
  }
  return lines.filter(shows);
}

/** Lines as one content with a break between each. */
function joinedLines(lines: ModelInline[][]): ModelInline[] {
  return lines.flatMap((line, i) => (i === 0 ? line : [{ kind: 'break' } as const, ...line]));
}

/** Content on one line: its breaks as spaces. */
function oneLine(content: ModelInline[]): ModelInline[] {
  return content.map((inline) => (inline.kind === 'break' ? { kind: 'text', text: ' ' } : inline));
}

/** A chart with Hancom's private-use characters mapped in its title and data. */
function mappedChart(chart: Chart): Chart {
  return {
    ...chart,
    title: mapPrivateUse(chart.title),
    rows: chart.rows.map((row) => row.map((cell) => mapPrivateUse(cell))),
  };
}
