/**
 * A document's Markdown cut into `pages` pieces of about equal length for refinement, page by
 * page as it is charged. Cuts fall only between blocks (at blank lines outside code fences and
 * HTML tables), so no table, list or fence is ever split; a document with fewer blocks than
 * pages gives fewer pieces.
 */
export function splitIntoPages(markdown: string, pages: number): string[] {
  const blocks = markdownBlocks(markdown);
  if (pages <= 1 || blocks.length <= 1) return markdown.trim() === '' ? [] : [markdown.trim()];
  const total = blocks.reduce((sum, b) => sum + b.length, 0);
  const target = total / pages;
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const block of blocks) {
    if (current.length > 0 && size + block.length / 2 > target && chunks.length < pages - 1) {
      chunks.push(current.join('\n\n'));
      current = [];
      size = 0;
    }
    current.push(block);
    size += block.length;
  }
  if (current.length > 0) chunks.push(current.join('\n\n'));
  return chunks;
}

/** Blocks separated by blank lines, keeping fenced code and HTML tables whole. */
export function markdownBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  let htmlTable = 0;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) fence = fence ? undefined : marker.slice(0, 3);
    htmlTable += (line.match(/<table\b/gi)?.length ?? 0) - (line.match(/<\/table>/gi)?.length ?? 0);
    if (line.trim() === '' && !fence && htmlTable <= 0) {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
