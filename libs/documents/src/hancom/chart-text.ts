import { readMarkdown, type Block, type Inline, type Provenance } from '@docconv/model';
import { joined, shows } from '../docx/docx-blocks';

/*
 * Charts reach the Hancom model as the Markdown the shared OOXML chart writer makes of them
 * (`chartMarkdown`: a title line, then the data as a table). Here that Markdown is read into the
 * document model once, with the model's own Markdown reader.
 */

/** A chart as model blocks (its title paragraph and its data table), `from` the document's file. */
export function chartBlocks(markdown: string, from: Provenance): Block[] {
  if (markdown.trim() === '') return [];
  return readMarkdown(markdown, from.file).blocks.map(({ written: _written, ...block }) => ({ ...block, from }));
}

/** A chart as lines of text, for a table cell or a note: its title, then each row of its data with the cells joined by spaces. */
export function chartLines(markdown: string): Inline[][] {
  const lines: Inline[][] = [];
  for (const block of chartBlocks(markdown, { file: '' })) {
    if (block.type === 'table') lines.push(...block.rows.map((row) => joined(row.map((cell) => cell.content))));
    else if (block.type === 'paragraph') lines.push(block.content);
  }
  return lines.filter(shows);
}
