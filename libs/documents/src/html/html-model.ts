import type { Block, Cell, Inline, ListItemBlock, Provenance } from '@docconv/model';
import type { HtmlBlock, ListItem } from './html-blocks';
import { picturesInText } from './html-inline';
import { innerTables } from './html-table';

/** The largest number a Markdown ordered list item can carry (nine digits, CommonMark 5.2). */
const MAX_LIST_NUMBER = 999_999_999;

/**
 * Lays the HTML reader's nested blocks out as the model's flat blocks, each from `file`:
 *
 * - a list item's paragraphs are its content, one line each; the lists inside it are items one
 *   level deeper; what else it holds (code, a table) follows it as a block of its own;
 * - each list is a list of its own (`list`, named after `part` and its place), so two lists
 *   that follow each other stay apart;
 * - a quotation's paragraphs are quoted paragraphs;
 * - a table's header rows are its leading rows of `th` (or `thead`) cells; the tables in a cell are the cell's blocks.
 */
export function modelBlocks(blocks: HtmlBlock[], file: string, part = ''): Block[] {
  return new Layout({ file }, part).blocks(blocks, false);
}

class Layout {
  private lists = 0;

  /** `part` prefixes the names of the lists, which stay apart from those of other parts. */
  constructor(
    private readonly from: Provenance,
    private readonly part: string,
  ) {}

  blocks(blocks: HtmlBlock[], quote: boolean, depth = 0): Block[] {
    return blocks.flatMap((block) => this.block(block, quote, depth));
  }

  private block(block: HtmlBlock, quote: boolean, depth: number): Block[] {
    const from = this.from;
    switch (block.type) {
      case 'paragraph':
        return [{ type: 'paragraph', content: picturesInText(block.content), from, ...(quote ? { quote: true } : {}) }];
      case 'heading':
        return [{ type: 'heading', level: block.level, content: picturesInText(block.content), from }];
      case 'list':
        return this.list(block, quote, depth);
      case 'quote':
        return this.blocks(block.blocks, true, depth);
      case 'code':
        return [{ type: 'code', text: block.text, from, ...(block.language ? { language: block.language } : {}) }];
      case 'table': {
        const rows = block.rows.map((row) =>
          row.map(({ content, rowspan, colspan, blocks }): Cell => {
            const inner = this.blocks(innerTables(blocks), quote, depth);
            return {
              content: picturesInText(content),
              rowspan,
              colspan,
              ...(inner.length > 0 ? { blocks: inner } : {}),
            };
          }),
        );
        return [{ type: 'table', rows, headerRows: block.headerRows, from }];
      }
      case 'rule':
        return [{ type: 'separator', from }];
    }
  }

  /** A list's items at `depth`, each followed by what it holds beyond its paragraphs. */
  private list(list: Extract<HtmlBlock, { type: 'list' }>, quote: boolean, depth: number): Block[] {
    const key = `${this.part}list-${++this.lists}`;
    const out: Block[] = [];
    for (const entry of list.items) {
      const { content, rest } = itemContent(entry);
      if (content.length > 0) out.push(this.item(entry, list.ordered, key, depth, content));
      out.push(...this.blocks(rest, quote, depth + 1));
    }
    return out;
  }

  private item(entry: ListItem, ordered: boolean, list: string, depth: number, content: Inline[]): ListItemBlock {
    const number = ordered ? Math.max(0, Math.min(MAX_LIST_NUMBER, entry.number)) : undefined;
    return { type: 'list_item', depth, content, list, from: this.from, ...(number === undefined ? {} : { number }) };
  }
}

/** An item's leading paragraphs and headings as its content, one line each, and the blocks after them. */
function itemContent(item: ListItem): { content: Inline[]; rest: HtmlBlock[] } {
  const content: Inline[] = [];
  let i = 0;
  for (; i < item.blocks.length; i++) {
    const block = item.blocks[i];
    if (block.type !== 'paragraph' && block.type !== 'heading') break;
    if (content.length > 0) content.push({ kind: 'break' });
    content.push(...block.content);
  }
  return { content: picturesInText(content), rest: item.blocks.slice(i) };
}
