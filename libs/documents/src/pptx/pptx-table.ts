import { gridRows, type Cell, type Inline, type PlacedCell, type Provenance, type TableBlock } from '@docconv/model';
import { type XmlNode, child, childrenNamed } from '../office/ooxml';
import { isOn, type ShapeContext } from './pptx-deck';
import { isBlank, paragraphsOf } from './pptx-text';

/**
 * A PowerPoint table as a table block on its grid: a cell that starts a merge carries its spans
 * (`gridSpan`, `rowSpan`), and the cells it covers (`hMerge`, `vMerge`) show nothing, as in
 * PowerPoint. A cell's paragraphs are its lines. The header rows are the first row when the
 * table's style marks it (`firstRow`).
 */
export function tableBlock(table: XmlNode, context: ShapeContext, from: Provenance): TableBlock {
  const trs = childrenNamed(table, 'tr');
  const cells: PlacedCell[] = [];
  const contents: Inline[][] = [];
  let width = 0;
  trs.forEach((tr, row) => {
    const tcs = childrenNamed(tr, 'tc');
    width = Math.max(width, tcs.length);
    tcs.forEach((tc, col) => {
      if (isOn(tc.attrs.hMerge) || isOn(tc.attrs.vMerge)) return;
      const content = cellContent(tc, context);
      // The shared grid rules place keys standing for the contents: where a cell lands on one
      // placed before it, the keys are joined, and so are the contents.
      const text = content.length === 0 ? '' : String(contents.push(content) - 1);
      cells.push({ row, col, rowspan: span(tc.attrs.rowSpan), colspan: span(tc.attrs.gridSpan), text });
    });
  });
  const rows = gridRows(cells, trs.length, width).map((row) =>
    row.map((cell): Cell => ({
      content: joined(cell.text === '' ? [] : cell.text.split(' ').map((key) => contents[Number(key)])),
      rowspan: cell.rowspan,
      colspan: cell.colspan,
    })),
  );
  const headerRows = rows.length > 0 && isOn(child(table, 'tblPr')?.attrs.firstRow) ? 1 : 0;
  return { type: 'table', from, rows, headerRows };
}

/** A cell's paragraphs with text, a line break between each. */
function cellContent(tc: XmlNode, context: ShapeContext): Inline[] {
  const lines = paragraphsOf(tc, context, undefined)
    .map((p) => p.content)
    .filter((content) => !isBlank(content));
  return lines.flatMap((line, i) => (i === 0 ? line : [{ kind: 'break' } as const, ...line]));
}

/** Contents of cells that landed on one slot, a space between each. */
function joined(parts: Inline[][]): Inline[] {
  return parts.flatMap((part, i) => (i === 0 ? part : [{ kind: 'text', text: ' ' } as const, ...part]));
}

/** A span attribute: a whole number of rows or columns, at least one. */
function span(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isInteger(n) && n > 1 ? Math.min(n, 1000) : 1;
}
