import type { Cell, Document, Inline } from '@docconv/model';

const from = { file: 'stock.pdf', page: 1 };

function cell(content: Inline[], spans: { rowspan?: number; colspan?: number } = {}): Cell {
  return { content, rowspan: spans.rowspan ?? 1, colspan: spans.colspan ?? 1 };
}

function text(value: string, style: { bold?: boolean; italic?: boolean } = {}): Inline {
  return { kind: 'text', text: value, ...style };
}

/**
 * A document whose one table formats runs inside its cells and merges cells both ways, for the specs that open
 * each office file and look for both:
 *
 * | Region          | Fruit      | Note          |
 * | North (2 rows)  | **Apples** | ripe *soon*   |
 * |                 | *Pears*    | picked        |
 * | **Total** (2 columns)        | 2 kinds       |
 */
export const FORMATTED_TABLE: Document = {
  version: 1,
  blocks: [
    { type: 'heading', from, level: 2, content: [text('Stock')] },
    {
      type: 'table',
      from,
      headerRows: 1,
      rows: [
        [cell([text('Region')]), cell([text('Fruit')]), cell([text('Note')])],
        [
          cell([text('North')], { rowspan: 2 }),
          cell([text('Apples', { bold: true })]),
          cell([text('ripe '), text('soon', { italic: true })]),
        ],
        [cell([text('Pears', { italic: true })]), cell([text('picked')])],
        [cell([text('Total', { bold: true })], { colspan: 2 }), cell([text('2 kinds')])],
      ],
    },
  ],
};
