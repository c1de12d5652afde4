import { escapeHeadingText, escapeLineStart } from '@docconv/model';
import type { Block } from './html-blocks';
import { tableBlockMarkdown } from './html-table';

/** The largest number a Markdown ordered list item can carry (nine digits, CommonMark 5.2). */
const MAX_LIST_NUMBER = 999_999_999;

/**
 * Blocks as Markdown, one blank line between them. `tight` is for the content of a list item: a
 * list that can interrupt a paragraph follows it on the next line, so the list stays tight.
 * Adjacent lists of one kind take alternating markers, or Markdown would read them as one list.
 */
export function renderBlocks(blocks: Block[], tight = false): string {
  let md = '';
  let previous: Block | undefined;
  let previousAlternate = false;
  for (const block of blocks) {
    const follows = block.type === 'list' && previous?.type === 'list' && previous.ordered === block.ordered;
    const alternate: boolean = follows && !previousAlternate;
    const text = renderBlock(block, alternate);
    if (text === '') continue;
    if (md !== '') md += tight && previous?.type === 'paragraph' && interruptsParagraph(block) ? '\n' : '\n\n';
    md += text;
    previous = block;
    previousAlternate = alternate;
  }
  return md;
}

/** Whether a block may start right under a paragraph's last line without joining it: a bullet list, or a list numbered from 1. */
function interruptsParagraph(block: Block): boolean {
  return block.type === 'list' && (!block.ordered || block.items[0]?.number === 1);
}

function renderBlock(block: Block, alternate: boolean): string {
  switch (block.type) {
    case 'paragraph':
      return block.text.split('\n').map(escapeLineStart).join('  \n');
    case 'heading':
      return `${'#'.repeat(block.level)} ${escapeHeadingText(block.text)}`;
    case 'list':
      return renderList(block, alternate);
    case 'quote':
      return renderBlocks(block.blocks)
        .split('\n')
        .map((line) => (line === '' ? '>' : `> ${line}`))
        .join('\n');
    case 'code': {
      const longest = Math.max(0, ...(block.text.match(/`{3,}/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(Math.max(3, longest + 1));
      return `${fence}${block.language}\n${block.text}\n${fence}`;
    }
    case 'table':
      return tableBlockMarkdown(block.rows);
    case 'rule':
      return '---';
  }
}

/**
 * A list: `-` or `*` bullets, numbers with `.` or `)`, each item's content indented under its
 * marker. Empty items are left out. An item ending in an HTML table is followed by a blank line,
 * which is what ends an HTML block.
 */
function renderList(block: Extract<Block, { type: 'list' }>, alternate: boolean): string {
  let md = '';
  for (const item of block.items) {
    const body = renderBlocks(item.blocks, true);
    if (body.trim() === '') continue;
    const number = Math.max(0, Math.min(MAX_LIST_NUMBER, item.number));
    const marker = block.ordered ? `${number}${alternate ? ')' : '.'}` : alternate ? '*' : '-';
    const pad = ' '.repeat(marker.length + 1);
    const text = body
      .split('\n')
      .map((line, i) => (i === 0 ? `${marker} ${line}` : line === '' ? '' : `${pad}${line}`))
      .join('\n');
    if (md !== '') md += md.endsWith('</table>') ? '\n\n' : '\n';
    md += text;
  }
  return md;
}
