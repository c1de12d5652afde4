/** One cell of a table: its text, and how many rows and columns it covers. */
export interface TableCell {
  text: string;
  rowspan: number;
  colspan: number;
}

/** A table as Markdown: GFM when no cell spans, otherwise an HTML table (GFM has no spans). */
export function tableMarkdown(rows: TableCell[][]): string {
  const spans = rows.some((row) => row.some((cell) => cell.rowspan > 1 || cell.colspan > 1));
  if (spans) {
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const cell = (c: TableCell, tag: string) =>
      `<${tag}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}>${escape(c.text)}</${tag}>`;
    return [
      '<table>',
      ...rows.map((row, r) => `<tr>${row.map((c) => cell(c, r === 0 ? 'th' : 'td')).join('')}</tr>`),
      '</table>',
    ].join('\n');
  }
  const width = Math.max(...rows.map((row) => row.length));
  const line = (row: TableCell[]) =>
    `| ${Array.from({ length: width }, (_, i) => (row[i]?.text ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}
