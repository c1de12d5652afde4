import {
  blockMarkdown,
  contentText,
  gridWidth,
  type Block,
  type Box,
  type Cell,
  type Provenance,
  type TableBlock,
} from '@docconv/model';
import { alignedTableAt } from './aligned-tables';
import { codeBlockAt } from './code-blocks';
import { BULLET, headingLevels, NUMBERED, RUN_IN_WORDS, wrapsOnto } from './headings';
import { mend, type Line, type TextRun } from './layout';
import { contentsEntry } from './leaders';
import { inlines, lineBox, originalBox, unionBox, type PageFrame } from './model-blocks';

/** How a sentence, and so possibly a paragraph, ends. */
const SENTENCE_END = /[.!?:;。！？]["'”’)\]]*$/;

/** What a document's type says about its text. */
export interface Typography {
  /** The size most of its text is set in. */
  bodySize: number;
  /** The font most of its text is set in. */
  bodyFont: string | undefined;
  /** Most of its text is set in a fixed-width face (a typewritten report): such a face alone does not mark code. */
  bodyMono?: boolean;
  /** Rounded size of larger type → heading level. */
  headingLevels: Map<number, number>;
}

/** A page's ordered lines, and what places its blocks: its number, its size, its scale and its turn (see PageLines). */
export interface OrderedPage extends PageFrame {
  number: number;
  lines: Line[];
}

/**
 * One line of a paragraph being gathered: its plain text, and for a list item's first line its
 * marker as written (`- `, `  1. `, `(a) `).
 */
interface Entry {
  head?: string;
  text: string;
  line: Line;
}

/**
 * The blocks of ordered lines of a whole document: headings from font size (larger than the
 * body text, short), list items from bullets and numbers, tables from runs of lines that
 * split into the same columns, code from fixed-width lines, paragraphs from line spacing,
 * hyphenation joined; lines that stand for blocks (ruled tables, figures, footnotes, OCR'd
 * paragraphs) give theirs. Text is plain: the Markdown writer escapes it. Each block comes
 * from `file`, on the page of its first line, in the box of its lines there.
 */
export function layoutBlocks(pages: OrderedPage[], type: Typography, file: string): Block[] {
  const { bodySize } = type;
  /** Blocks as groups: a list is one group of items, every other block one of its own. */
  const groups: Block[][] = [];
  let paragraph: Entry[] = [];
  let lastLine: Line | undefined;
  /** The heading last written: its group and its text so far. */
  let heading: { group: Block[]; text: string; lines: Line[] } | undefined;
  /** The lines of the running paragraph, for where its lines end. */
  let paragraphLines: Line[] = [];
  /** The last line of a page whose paragraph was left open, for the first line of the next. */
  let carry: Line | undefined;
  let page = pages[0];
  /** Where lines of the current page and of the pages before stand. */
  const pageOf = new Map<Line, OrderedPage>();
  const from = (lines: Line[]) => provenance(file, lines, pageOf);
  const endParagraph = () => {
    if (paragraph.length > 0) groups.push(paragraphBlocks(paragraph, from));
    paragraph = [];
    paragraphLines = [];
  };
  /** The Markdown the last group starts with. */
  const lastStart = () => {
    const first = groups[groups.length - 1]?.[0];
    return first === undefined ? undefined : blockMarkdown(first);
  };

  for (page of pages) {
    for (const line of page.lines) pageOf.set(line, page);
    const lines = page.lines;
    const levels = headingLevels(lines, type);
    lastLine = undefined;
    const pageStart = groups.length;
    /**
     * A group; a table going on from the foot of the page before, with the same columns, joins that
     * table, and a line above it that only says so ("Table 1 (continued).") goes with the break.
     */
    const pushGroup = (blocks: Block[]) => {
      const group = blocks.map((block) => (block.type === 'table' ? withCellsPlaced(block, page) : block));
      // What the page holds so far: nothing, or only a line saying the table goes on.
      const opening = groups.slice(pageStart);
      const notes = opening.length === 1 && saysContinued(opening[0]) ? 1 : 0;
      const previous = groups[pageStart - 1];
      const continued =
        opening.length === notes && pageStart > 0 && previous.length === 1 && group.length === 1
          ? continuedTable(previous[0], group[0])
          : undefined;
      if (continued === undefined) {
        groups.push(group);
        return;
      }
      groups.splice(pageStart - 1, notes + 1, [continued]);
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const carried = carry;
      carry = undefined;
      if (line.blocks) {
        endParagraph();
        const own = from([line]);
        // Each of a line's blocks (an OCR'd page's paragraphs) is a group of its own, in its own box when it has one.
        for (const block of line.blocks) {
          const box = block.from.box && placedBox([block.from.box], page);
          pushGroup([{ ...block, from: box ? { ...own, box } : own }]);
        }
        lastLine = line;
        continue;
      }
      const code = codeBlockAt(lines, i, bodySize, type.bodyMono);
      if (code) {
        endParagraph();
        groups.push([{ type: 'code', text: code.text, from: from(lines.slice(i, code.end)) }]);
        i = code.end - 1;
        lastLine = lines[i];
        continue;
      }
      const table = alignedTableAt(lines, i);
      if (table) {
        endParagraph();
        const placed = from(lines.slice(i, table.end));
        pushGroup(table.tables.map(({ rows, headerRows }) => ({ type: 'table', rows, headerRows, from: placed })));
        i = table.end - 1;
        lastLine = lines[i];
        continue;
      }
      // A contents entry stands alone, its label and page without the dot leader: no heading, no run-on.
      const entry = contentsEntry(line.text);
      if (entry) {
        endParagraph();
        groups.push([{ type: 'paragraph', content: inlines(`${entry.label} ${entry.page}`), from: from([line]) }]);
        lastLine = line;
        continue;
      }
      const level = levels.get(line) ?? 0;
      if (level > 0) {
        endParagraph();
        // A heading that wraps onto a second line continues the same heading.
        if (
          lastLine &&
          heading?.group === groups[groups.length - 1] &&
          levels.get(lastLine) === level &&
          wrapsOnto(lastLine, line)
        ) {
          heading.text = `${heading.text} ${line.text}`;
          heading.lines.push(line);
        } else {
          heading = { group: [], text: line.text, lines: [line] };
          groups.push(heading.group);
        }
        heading.group[0] = { type: 'heading', level, content: inlines(heading.text), from: from(heading.lines) };
        lastLine = line;
        continue;
      }
      const bullet = BULLET.exec(line.text);
      const numbered = lettered(NUMBERED.exec(line.text), lines, i);
      if (bullet || numbered) {
        if (!isListItem(paragraph[0])) endParagraph();
        const indent =
          lastLine && line.x > lastLine.x + bodySize * 1.5 && lastStart()?.match(/^\s*([-*]|\d+\.) /) ? '  ' : '';
        const marker = bullet ? '-' : numbered![1];
        const rest = line.text.slice((bullet ?? numbered)![0].length);
        paragraph.push({ head: `${indent}${marker} `, text: rest, line });
        paragraphLines = [];
        lastLine = line;
        continue;
      }
      // The first line of a page goes on with a sentence the page before left open, in the same type.
      const goesOn = carried !== undefined && Math.abs(line.size - carried.size) <= 1;
      const startsParagraph = lastLine
        ? line.y - lastLine.y > Math.max(line.size, lastLine.size) * 1.75 ||
          line.y < lastLine.y ||
          Math.abs(line.size - lastLine.size) > 1 ||
          (line.paragraph !== undefined && line.paragraph !== lastLine.paragraph) ||
          (paragraph.length > 0 &&
            /^\s*([-*]|\d+[.)])\s/.test(entryStart(paragraph[0])) &&
            line.x <= lastLine.x - bodySize) ||
          (paragraphLines.length > 0 && !isListItem(paragraph[0]) && indentedAfterEnd(line, lastLine, paragraphLines))
        : !goesOn;
      if (startsParagraph) endParagraph();
      paragraph.push({ text: line.text, line });
      paragraphLines.push(line);
      lastLine = line;
    }
    // A paragraph whose last line ends mid-sentence may go on at the top of the next page.
    if (paragraph.length > 0 && lastLine && !lastLine.block && !SENTENCE_END.test(lastLine.text)) carry = lastLine;
    else endParagraph();
  }
  endParagraph();
  // Levels closed up over those the headings found use, from the highest: larger type that turned
  // out to be a list or a paragraph leaves no gap in the outline.
  const used = [...new Set(groups.flat().flatMap((block) => (block.type === 'heading' ? [block.level] : [])))];
  const rank = new Map(used.sort((a, b) => a - b).map((level, i) => [level, used[0] + i]));
  return groups.flatMap((group, g) =>
    group.map((block, i): Block => {
      if (block.type === 'heading') return { ...block, level: rank.get(block.level) ?? block.level };
      return i === 0 && g > 0 && block.type === 'list_item' && groups[g - 1].at(-1)?.type === 'list_item'
        ? { ...block, opens: true }
        : block;
    }),
  );
}

/** How many lines away the letter before or after a capital's (`A.`, `B.`) is looked for. */
const LETTER_REACH = 10;

/**
 * A list marker as found, unless it is a capital letter and a full stop that no line beside it
 * continues (`A.` then `B.`): alone, `A. Author and B. Author` opens with an initial.
 */
function lettered(marker: RegExpExecArray | null, lines: Line[], i: number): RegExpExecArray | null {
  const letter = marker && /^([A-Z])\.$/.exec(marker[1])?.[1];
  if (!letter) return marker;
  const code = letter.charCodeAt(0);
  const opens = (step: number) => (line: Line) => line.text.startsWith(`${String.fromCharCode(code + step)}. `);
  const near = (from: number, to: number) => lines.slice(Math.max(0, from), Math.max(0, to));
  return near(i - LETTER_REACH, i).some(opens(-1)) || near(i + 1, i + 1 + LETTER_REACH).some(opens(1)) ? marker : null;
}

/**
 * A line set in by a first-line indent after a line that ended the paragraph before: a sentence's
 * end, or a line stopping well short of the others. (A hanging indent, as in a list of
 * references, sets in lines that go on mid-sentence.)
 */
function indentedAfterEnd(line: Line, last: Line, paragraph: Line[]): boolean {
  const indent = line.x - last.x;
  if (indent < line.size * 0.8 || indent > line.size * 4) return false;
  const right = Math.max(...paragraph.map((l) => l.right));
  const short = paragraph.length >= 2 && last.right < right - line.size * 2;
  return short || /[.!?:;"”’)]$/.test(last.text);
}

/**
 * A line that reads as a list item (`- `, `1. `, `a) `, `A) `), or one a marker opened (a capital
 * and a full stop only in a run of letters: see lettered).
 */
const LIST_ITEM = /^\s*(- |\d+[.)] |\(?[a-z][.)] |\(?[A-Z]\) )/;
const entryStart = (entry: Entry | undefined) => (entry === undefined ? '' : `${entry.head ?? ''}${entry.text}`);
const isListItem = (entry: Entry | undefined) =>
  entry !== undefined && (entry.head !== undefined || LIST_ITEM.test(entry.text));

/**
 * A paragraph's lines as blocks: list items when it opens with one (each item's lines after the
 * first go on with it), else one paragraph; a word hyphenated at a line end is mended.
 */
function paragraphBlocks(entries: Entry[], from: (lines: Line[]) => Provenance): Block[] {
  if (!isListItem(entries[0])) {
    const text = entries.map(entryStart).reduce((text, line) => mend(text, line));
    const lead = runIn(entries[0].line);
    const content =
      lead && text.startsWith(lead.text)
        ? [{ kind: 'text' as const, ...lead }, ...inlines(text.slice(lead.text.length))]
        : inlines(text);
    return [{ type: 'paragraph', content, from: from(entries.map((e) => e.line)) }];
  }
  const items: { head: string; text: string; lines: Line[] }[] = [];
  for (const entry of entries) {
    const item = items[items.length - 1];
    if (isListItem(entry) || item === undefined) {
      const head = entry.head ?? LIST_ITEM.exec(entry.text)?.[0] ?? '';
      items.push({
        head,
        text: entry.head === undefined ? entry.text.slice(head.length) : entry.text,
        lines: [entry.line],
      });
    } else {
      item.text = mend(item.text, entryStart(entry));
      item.lines.push(entry.line);
    }
  }
  return items.map((item): Block => {
    const marker = item.head.trim();
    const digits = /^(\d+)\.$/.exec(marker)?.[1];
    const number = digits !== undefined && String(Number(digits)) === digits ? Number(digits) : undefined;
    return {
      type: 'list_item',
      depth: item.head.startsWith(' ') ? 1 : 0,
      ...(number !== undefined ? { number } : marker === '-' ? {} : { marker }),
      content: inlines(item.text),
      from: from(item.lines),
    };
  });
}

/**
 * A run-in heading opening a paragraph's first line: its first words set in bold or italic, the
 * rest of the line not (`Field sites. The buoys…`), with their emphasis; undefined when there is none.
 */
function runIn(line: Line): { text: string; bold?: true; italic?: true } | undefined {
  const runs = line.runs.filter((run) => run.text.trim() !== '' && !run.mark);
  const styled = (run: TextRun) => (run.bold ? 'b' : '') + (run.italic ? 'i' : '');
  const style = runs[0] && styled(runs[0]);
  if (!style || line.rtl) return undefined;
  const count = runs.findIndex((run) => styled(run) !== style);
  if (count <= 0 || runs.slice(count).some((run) => styled(run) !== '')) return undefined;
  const text = runs
    .slice(0, count)
    .map((run) => run.text.trim())
    .join(' ')
    .replace(/\s+/g, ' ');
  if (text.split(' ').length > RUN_IN_WORDS) return undefined;
  return {
    text,
    ...(style.includes('b') ? { bold: true as const } : {}),
    ...(style.includes('i') ? { italic: true as const } : {}),
  };
}

/** A line that only says a table goes on: "Table 1 (continued).", "(cont'd)", "Continued", "(계속)". */
const CONTINUED =
  /^(?:(?:table|exhibit|표)\s*[\w.-]+\s*)?[([]?\s*(?:continued|cont(?:'d|\.|inued)?|계속)\s*[)\]]?[.:]?$/i;

/** Whether a group is a paragraph that only says the table before it goes on (see CONTINUED). */
function saysContinued(group: Block[]): boolean {
  return group.length === 1 && group[0].type === 'paragraph' && CONTINUED.test(contentText(group[0].content).trim());
}

/**
 * A table and the table that opens the next page joined, when their grids have the same columns
 * (spans and all); the second's header is left out when it repeats the first's. Undefined
 * when they do not match.
 */
export function continuedTable(first: Block, second: Block): TableBlock | undefined {
  if (first.type !== 'table' || second.type !== 'table') return undefined;
  const width = gridWidth(first.rows);
  if (width < 2 || gridWidth(second.rows) !== width) return undefined;
  const texts = (rows: Cell[][]) => JSON.stringify(rows.map((row) => row.map((cell) => contentText(cell.content))));
  // A header is its header rows, and as deep as its first row's cells reach down.
  const depth = (table: TableBlock) => Math.max(table.headerRows, ...(table.rows[0] ?? []).map((cell) => cell.rowspan));
  const head = (table: TableBlock) => table.rows.slice(0, depth(table));
  const repeated = second.headerRows > 0 && texts(head(second)) === texts(head(first));
  const later = [...(first.from.continues ?? []), second.from.page].filter(
    (page): page is number => page !== undefined && page !== first.from.page,
  );
  return {
    ...first,
    rows: [...first.rows, ...(repeated ? second.rows.slice(depth(second)) : second.rows)],
    from: { ...first.from, ...(later.length > 0 ? { continues: [...new Set(later)] } : {}) },
  };
}

/** A table whose cells' boxes (in page units) are placed in the original's units and frame, with their page. */
function withCellsPlaced(table: TableBlock, page: Omit<OrderedPage, 'lines'>): TableBlock {
  if (!table.rows.some((row) => row.some((cell) => cell.box))) return table;
  const rows = table.rows.map((row) =>
    row.map((cell) => {
      const box = cell.box && placedBox([cell.box], page);
      return box ? { ...cell, box, page: page.number } : cell;
    }),
  );
  return { ...table, rows };
}

/** Where lines came from: the page of the first, and the box of those of its lines on that page. */
function provenance(file: string, lines: Line[], pageOf: Map<Line, OrderedPage>): Provenance {
  const page = pageOf.get(lines[0]);
  if (page === undefined) return { file };
  const box = placedBox(
    lines.filter((line) => pageOf.get(line) === page).map((line) => lineBox(line, page.height)),
    page,
  );
  return { file, page: page.number, ...(box ? { box } : {}) };
}

/** The union of boxes in page units, in the original's units (PDF points, image pixels) and frame, within the page. */
export function placedBox(boxes: Box[], page: Omit<OrderedPage, 'lines'>): Box | undefined {
  const union = unionBox(boxes);
  return union && originalBox(union, page);
}
