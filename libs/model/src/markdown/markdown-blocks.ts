export const BLOCK_TYPES = [
  'heading',
  'paragraph',
  'list_item',
  'table',
  'figure',
  'code',
  'formula',
  'footnote',
  'quote',
  'separator',
  'html',
  'page_header',
  'page_footer',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export interface TableCell {
  row: number;
  column: number;
  rowspan: number;
  colspan: number;
  header: boolean;
  text: string;
}

/** A block of the Markdown: its kind, its plain text and where it stands (`[start, end)`, UTF-16 units). */
export interface MarkdownBlock {
  type: BlockType;
  text: string;
  start: number;
  end: number;
  /** Headings: 1…6. */
  level?: number;
  /** Tables: every cell, with its row and column (from 0) and spans. */
  cells?: TableCell[];
  /** Figures: the picture's alternative text, and where it points. */
  caption?: string;
  image?: string;
  /** Code: the fence's language, when it names one. */
  language?: string;
}

/** Tables larger than this are given without their cells (a result's JSON would be several times its Markdown). */
export const MAX_TABLE_CELLS = 50_000;

/** The Markdown's lines, kept as where each starts and ends (a line object each cost more in garbage collection than the reading). */
class SourceLines {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(private readonly markdown: string) {
    for (let start = 0; start <= markdown.length;) {
      const newline = markdown.indexOf('\n', start);
      const end = newline < 0 ? markdown.length : newline;
      this.starts.push(start);
      this.ends.push(end > start && markdown[end - 1] === '\r' ? end - 1 : end);
      if (newline < 0) break;
      start = newline + 1;
    }
  }

  get length(): number {
    return this.starts.length;
  }

  start(k: number): number {
    return this.starts[k];
  }

  text(k: number): string {
    return this.markdown.slice(this.starts[k], this.ends[k]);
  }

  /** Lines `from` up to (not including) `to`. */
  texts(from: number, to: number): string[] {
    const out: string[] = [];
    for (let k = from; k < to; k++) out.push(this.text(k));
    return out;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const SEPARATOR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const HTML_BLOCK =
  /^ {0,3}<(\/?(table|div|details|summary|p|ul|ol|li|blockquote|h[1-6]|pre|figure|section|dl|hr)\b|!--)/i;
const FOOTNOTE = /^ {0,3}\[\^[^\]]+\]:/;
const QUOTE = /^ {0,3}>/;
const FORMULA = /^ {0,3}\$\$/;

/**
 * The Markdown cut into the blocks a reader sees, in order: headings, paragraphs, each list item
 * (a nested list's items are blocks of their own), tables with their cells, figures, code,
 * formulas (`$$…$$`), footnotes, quotes, separators and raw HTML. The spans of the blocks cover
 * all of the Markdown but the blank lines between them. It reads the CommonMark and GFM the
 * converters write line by line, in one pass: a full parser took seconds a megabyte.
 */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const lines = new SourceLines(markdown);
  const blocks: MarkdownBlock[] = [];
  const blank = (i: number) => i >= lines.length || lines.text(i).trim() === '';
  const span = (first: number, last: number) => ({
    start: lines.start(first),
    end: lines.start(last) + lines.text(last).length,
  });
  const startsBlock = (text: string) =>
    FENCE.test(text) ||
    HEADING.test(text) ||
    FORMULA.test(text) ||
    HTML_BLOCK.test(text) ||
    FOOTNOTE.test(text) ||
    QUOTE.test(text) ||
    LIST_ITEM.test(text) ||
    SEPARATOR.test(text);
  let i = 0;
  while (i < lines.length) {
    const text = lines.text(i);
    if (blank(i)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(text);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1][0] === '`' ? '`' : '~'}{${fence[1].length},}\\s*$`);
      let last = i + 1;
      while (last < lines.length && !close.test(lines.text(last))) last++;
      const end = Math.min(last, lines.length - 1);
      const body = lines.texts(i + 1, last);
      blocks.push({
        type: 'code',
        text: body.join('\n').trim(),
        ...span(i, end),
        ...(fence[2] ? { language: fence[2] } : {}),
      });
      i = end + 1;
      continue;
    }
    if (FORMULA.test(text)) {
      let last = i;
      if (!/\$\$\s*$/.test(text.trim().slice(2)))
        while (last + 1 < lines.length && !/\$\$\s*$/.test(lines.text(++last)));
      const source = lines
        .texts(i, last + 1)
        .join('\n')
        .trim();
      blocks.push({ type: 'formula', text: source.replace(/^\$\$|\$\$$/g, '').trim(), ...span(i, last) });
      i = last + 1;
      continue;
    }
    const heading = HEADING.exec(text);
    if (heading) {
      const title = text.slice(heading[0].length).replace(/[ \t]+#+[ \t]*$/, '');
      blocks.push({ type: 'heading', level: heading[1].length, text: inlineText(title), ...span(i, i) });
      i++;
      continue;
    }
    if (SEPARATOR.test(text)) {
      blocks.push({ type: 'separator', text: '', ...span(i, i) });
      i++;
      continue;
    }
    if (HTML_BLOCK.test(text)) {
      let last = i;
      if (text.trimStart().startsWith('<!--')) {
        while (!lines.text(last).includes('-->') && last + 1 < lines.length) last++;
      } else while (!blank(last + 1)) last++;
      const html = lines.texts(i, last + 1).join('\n');
      const cells = htmlTableCells(html);
      const image = /^\s*<!--\s*image(?::\s*([\s\S]*?))?\s*-->\s*$/.exec(html);
      if (cells) blocks.push({ type: 'table', text: cells.map((c) => c.text).join(' '), cells, ...span(i, last) });
      else if (image)
        blocks.push({
          type: 'figure',
          text: (image[1] ?? '').trim(),
          caption: (image[1] ?? '').trim(),
          ...span(i, last),
        });
      else blocks.push({ type: 'html', text: inlineText(html.replace(/<[^>]*>/g, ' ')), ...span(i, last) });
      i = last + 1;
      continue;
    }
    if (
      text.includes('|') &&
      i + 1 < lines.length &&
      TABLE_DELIMITER.test(lines.text(i + 1)) &&
      lines.text(i + 1).includes('-')
    ) {
      // Rows up to a blank line, a line without a pipe, or a heading or fence.
      let last = i + 1;
      while (
        !blank(last + 1) &&
        lines.text(last + 1).includes('|') &&
        !HEADING.test(lines.text(last + 1)) &&
        !FENCE.test(lines.text(last + 1))
      )
        last++;
      const header = gfmCells(text);
      // A table of more cells than MAX_TABLE_CELLS keeps its text and leaves its cells to the Markdown.
      const large = (last - i) * header.length > MAX_TABLE_CELLS;
      const cells = large
        ? undefined
        : [i, ...Array.from({ length: last - i - 1 }, (_, k) => i + 2 + k)].flatMap((n, r) =>
            gfmCells(lines.text(n)).map((cell, column) => ({
              row: r,
              column,
              rowspan: 1,
              colspan: 1,
              header: r === 0,
              text: inlineText(cell),
            })),
          );
      // A large table's text is its rows as written, pipes aside: reading every cell's markup would take seconds.
      const tableText = cells
        ? cells.map((c) => c.text).join(' ')
        : markdown
            .slice(span(i, last).start, span(i, last).end)
            .replace(/\|/g, ' ')
            .replace(/[ \t]+/g, ' ');
      blocks.push({ type: 'table', text: tableText, ...(cells ? { cells } : {}), ...span(i, last) });
      i = last + 1;
      continue;
    }
    const item = LIST_ITEM.exec(text);
    if (item) {
      // The item's own lines: its first, and those after it that are not another item or block (indented ones after a blank line too).
      const indent = item[0].length;
      let last = i;
      for (let next = i + 1; next < lines.length; next++) {
        const line = lines.text(next);
        if (blank(next)) {
          if (
            next + 1 < lines.length &&
            !blank(next + 1) &&
            /^ */.exec(lines.text(next + 1))![0].length >= indent &&
            !LIST_ITEM.test(lines.text(next + 1))
          )
            continue;
          break;
        }
        if (LIST_ITEM.test(line) || (startsBlock(line) && /^ */.exec(line)![0].length < indent)) break;
        last = next;
      }
      const body = [text.slice(item[0].length), ...lines.texts(i + 1, last + 1).map((t) => t.trim())].join('\n');
      blocks.push({ type: 'list_item', text: inlineText(body.replace(/^\[[ xX]\][ \t]+/, '')), ...span(i, last) });
      i = last + 1;
      continue;
    }
    // A quote, a footnote or a paragraph: up to the next blank line or block.
    const type: BlockType = QUOTE.test(text) ? 'quote' : FOOTNOTE.test(text) ? 'footnote' : 'paragraph';
    let last = i;
    while (!blank(last + 1)) {
      const next = lines.text(last + 1);
      if (type === 'paragraph' && startsBlock(next) && !QUOTE.test(next)) break;
      if (type === 'footnote' && FOOTNOTE.test(next)) break;
      if (type === 'quote' && !QUOTE.test(next) && startsBlock(next)) break;
      last++;
    }
    const source = lines.texts(i, last + 1);
    const body =
      type === 'quote'
        ? source.map((l) => l.replace(/^ {0,3}> ?/, '')).join('\n')
        : type === 'footnote'
          ? source.join('\n').replace(FOOTNOTE, '')
          : source.join('\n');
    const only = /^\s*!\[((?:\\.|[^\]\\])*)\]\(([^)\s]*)\)\s*$/.exec(body);
    if (type === 'paragraph' && only) {
      const caption = unescape(only[1]);
      blocks.push({ type: 'figure', text: caption, caption, image: only[2], ...span(i, last) });
    } else blocks.push({ type, text: inlineText(body), ...span(i, last) });
    i = last + 1;
  }
  return blocks;
}

/**
 * The text a reader reads in a stretch of inline Markdown: images by their alternative text,
 * links by their text, no emphasis or code markers, escapes and entities undone, HTML tags out.
 */
export function inlineText(markdown: string): string {
  return decodeEntities(
    unescape(
      markdown
        .replace(/!\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g, ' $1 ')
        .replace(/\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g, '$1')
        .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/?[A-Za-z][^>]*>/g, '')
        .replace(/(?<!\\)(\*\*|__|~~|\*|`+)/g, '')
        .replace(/(?<![\p{L}\p{N}\\])_|_(?![\p{L}\p{N}])/gu, ''),
    ),
  )
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

/** Backslash escapes undone. */
function unescape(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/**
 * The cells of an HTML table (what the Markdown uses for tables with merged cells), placed on
 * the grid their spans make; undefined when the HTML is not a table.
 */
export function htmlTableCells(html: string): TableCell[] | undefined {
  if (!/^\s*<table[\s>]/i.test(html)) return undefined;
  const cells: TableCell[] = [];
  const taken = new Set<string>();
  const rows = html.match(/<tr[\s>][\s\S]*?<\/tr>/gi) ?? [];
  for (const [r, row] of rows.entries()) {
    let column = 0;
    for (const match of row.matchAll(/<(td|th)([^>]*)>([\s\S]*?)<\/\1>/gi)) {
      while (taken.has(`${r}:${column}`)) column++;
      const span = (name: string) =>
        Math.max(1, Number(new RegExp(`${name}\\s*=\\s*"?(\\d+)`, 'i').exec(match[2])?.[1] ?? 1));
      const rowspan = span('rowspan');
      const colspan = span('colspan');
      for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < colspan; dc++) taken.add(`${r + dr}:${column + dc}`);
      cells.push({
        row: r,
        column,
        rowspan,
        colspan,
        header: match[1].toLowerCase() === 'th',
        text: decodeEntities(match[3].replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ' '))
          .replace(/[ \t]+/g, ' ')
          .trim(),
      });
      column += colspan;
    }
  }
  return cells;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) =>
    name === 'amp'
      ? '&'
      : name === 'lt'
        ? '<'
        : name === 'gt'
          ? '>'
          : name === 'quot'
            ? '"'
            : name === '#39'
              ? "'"
              : ' ',
  );
}

/** A GFM table row's cells as written: split at the pipes that are not escaped, the outer pipes dropped, trimmed. */
export function gfmCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  const text = line.trim();
  for (let k = 0; k < text.length; k++) {
    if (text[k] === '\\' && k + 1 < text.length) {
      cell += text[k] + text[k + 1];
      k++;
    } else if (text[k] === '|') {
      cells.push(cell);
      cell = '';
    } else cell += text[k];
  }
  cells.push(cell);
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|') && cells.length > 0) cells.pop();
  return cells.map((c) => c.trim());
}
