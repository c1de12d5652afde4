import { inlineHtml } from '@docconv/model';
import { tableMarkdown } from '@docconv/model';
import { flattenBlocks, type BlockCell } from './html-blocks';

/**
 * A table as Markdown: `tableMarkdown` (GFM, or HTML when cells span), unless a cell holds a
 * table of its own. Markdown has no nested tables, so such a table is written as HTML with the
 * inner tables in their cells, at any depth.
 */
export function tableBlockMarkdown(rows: BlockCell[][]): string {
  return rows.some((row) => row.some(holdsTable)) ? nestedTableHtml(rows) : tableMarkdown(rows);
}

function holdsTable(cell: BlockCell): boolean {
  return cell.blocks.some((block) => block.type === 'table');
}

/** An HTML table whose cells may hold tables; the first row is the header, as in `tableMarkdown`. */
function nestedTableHtml(rows: BlockCell[][]): string {
  const cell = (c: BlockCell, tag: string): string =>
    `<${tag}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}>${cellHtml(c)}</${tag}>`;
  return [
    '<table>',
    ...rows.map((row, r) => `<tr>${row.map((c) => cell(c, r === 0 ? 'th' : 'td')).join('')}</tr>`),
    '</table>',
  ].join('\n');
}

/** A cell's content as HTML: its lines of text (emphasis, code and links as tags) and its tables. */
function cellHtml(cell: BlockCell): string {
  if (!holdsTable(cell)) return lines(cell.text);
  let html = '';
  let inline = false;
  for (const block of cell.blocks) {
    if (block.type === 'table') {
      html += nestedTableHtml(block.rows);
      inline = false;
      continue;
    }
    const text = lines(flattenBlocks([block]));
    if (text === '') continue;
    html += (inline ? '<br>' : '') + text;
    inline = true;
  }
  return html;
}

function lines(text: string): string {
  return text === ''
    ? ''
    : text
        .split('\n')
        .map((line) => inlineHtml(line.trim()))
        .join('<br>');
}
