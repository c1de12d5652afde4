import { gridRows, tableMarkdown, withoutLines, type PlacedCell, type GridCell } from './tables';

const cell = (text: string, rowspan = 1, colspan = 1): GridCell => ({ text, rowspan, colspan });
const placed = (row: number, col: number, text: string, rowspan = 1, colspan = 1): PlacedCell => ({
  row,
  col,
  text,
  rowspan,
  colspan,
});

describe('tableMarkdown', () => {
  it('writes a table of single cells as GFM, padding short rows and escaping pipes', () => {
    expect(tableMarkdown([[cell('Name'), cell('Note')], [cell('a|b')]])).toBe(
      ['| Name | Note |', '| --- | --- |', '| a\\|b |  |'].join('\n'),
    );
  });

  it('writes a table with any spanning cell as HTML, the first row as header cells', () => {
    expect(
      tableMarkdown([
        [cell('Fruit', 2), cell('Price', 1, 2)],
        [cell('2025'), cell('2026')],
      ]),
    ).toBe(
      [
        '<table>',
        '<tr><th rowspan="2">Fruit</th><th colspan="2">Price</th></tr>',
        '<tr><td>2025</td><td>2026</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('writes line breaks in a cell as <br> in both forms and escapes text in HTML', () => {
    expect(tableMarkdown([[cell(' one\r\ntwo ')], [cell('x')]])).toBe('| one<br>two |\n| --- |\n| x |');
    expect(tableMarkdown([[cell('a < b\n& c', 1, 2)]])).toBe(
      '<table>\n<tr><th colspan="2">a &lt; b<br>&amp; c</th></tr>\n</table>',
    );
  });

  it('writes the inline Markdown of an HTML cell as HTML, since CommonMark reads none inside HTML', () => {
    expect(
      tableMarkdown([
        [cell('**Total** and *net*', 1, 2)],
        [cell('\\*not emphasis\\* ~~gone~~ `a<b`'), cell('[site](https://example.org) [x](javascript:alert(1))')],
      ]),
    ).toBe(
      [
        '<table>',
        '<tr><th colspan="2"><strong>Total</strong> and <em>net</em></th></tr>',
        '<tr><td>*not emphasis* <del>gone</del> <code>a&lt;b</code></td><td><a href="https://example.org">site</a> x</td></tr>',
        '</table>',
      ].join('\n'),
    );
    expect(tableMarkdown([[cell('1. Revenue | net', 1, 2)], [cell('# not a heading'), cell('<b>raw</b>')]])).toBe(
      [
        '<table>',
        '<tr><th colspan="2">1. Revenue | net</th></tr>',
        '<tr><td># not a heading</td><td>&lt;b&gt;raw&lt;/b&gt;</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('writes nothing for a table without rows, and handles a very long one', () => {
    expect(tableMarkdown([])).toBe('');
    const rows = Array.from({ length: 300_000 }, (_, i) => [cell(String(i))]);
    expect(tableMarkdown(rows).split('\n')).toHaveLength(300_001);
  });
});

describe('gridRows', () => {
  it('anchors each cell once at its top-left slot, leaving out covered slots and filling empty ones', () => {
    const rows = gridRows([placed(0, 0, 'A', 2), placed(0, 1, 'B', 1, 2), placed(1, 2, 'C')], 3, 3);
    expect(rows).toEqual([
      [cell('A', 2), cell('B', 1, 2)],
      [cell(''), cell('C')],
      [cell(''), cell(''), cell('')],
    ]);
  });

  it('cuts spans at the grid and at cells placed before them, and adds the text of a covered cell to its cover', () => {
    const rows = gridRows([placed(0, 1, 'tall', 9), placed(1, 0, 'wide', 1, 5), placed(1, 1, 'under')], 2, 3);
    expect(rows).toEqual([
      [cell(''), cell('tall under', 2), cell('')],
      [cell('wide'), cell('')],
    ]);
  });

  it('costs no more than the grid for a span over a very large area', () => {
    const started = Date.now();
    const rows = gridRows([placed(0, 0, 'all', 1_000_000, 16_384)], 2, 2);
    expect(rows).toEqual([[cell('all', 2, 2)], []]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('withoutLines', () => {
  it('moves cells past the removed rows and columns and shrinks the spans over them', () => {
    const cells = [placed(0, 0, 'A', 3, 1), placed(0, 1, 'B', 1, 3), placed(1, 1, ''), placed(2, 2, 'C')];
    expect(withoutLines(cells, [true, false, true], [true, false, true])).toEqual([
      placed(0, 0, 'A', 2, 1),
      placed(0, 1, 'B', 1, 1),
      placed(1, 1, 'C'),
    ]);
  });
});
