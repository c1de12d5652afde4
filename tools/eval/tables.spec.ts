import {
  adjacencyF1,
  adjacencyRelations,
  cellContentF1,
  htmlToText,
  isTablesOnlyReference,
  matchTables,
  parseDoclingTables,
  parseGfmTables,
  parseHtmlTables,
  parseMarkdownTables,
  poolTableScores,
  cellWords,
  sameTable,
  scoreTables,
  splitGfmRow,
  structureExactness,
  tableHasText,
  teds,
  type Table,
} from './tables';

/** A table from rows of texts; `[text, rowspan, colspan]` for spanning cells. */
function table(...rows: (string | [string, number, number])[][]): Table {
  return {
    rows: rows.map((row, r) =>
      row.map((cell) =>
        typeof cell === 'string'
          ? { text: cell, rowspan: 1, colspan: 1, header: r === 0 }
          : { text: cell[0], rowspan: cell[1], colspan: cell[2], header: r === 0 },
      ),
    ),
  };
}

const texts = (t: Table): string[][] => t.rows.map((r) => r.map((c) => c.text));

describe('parseGfmTables', () => {
  it('reads header, delimiter and body rows', () => {
    const [t, ...rest] = parseGfmTables('intro\n\n| A | B |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter | not a table');
    expect(rest).toHaveLength(0);
    expect(texts(t)).toEqual([
      ['A', 'B'],
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(t.rows[0].every((c) => c.header)).toBe(true);
    expect(t.rows[1].some((c) => c.header)).toBe(false);
  });

  it('accepts tables without outer pipes, pads short rows and cuts long ones', () => {
    const [t] = parseGfmTables('a | b | c\n--|--|--\n1 |\n1 | 2 | 3 | 4\nno pipe ends it');
    expect(texts(t)).toEqual([
      ['a', 'b', 'c'],
      ['1', '', ''],
      ['1', '2', '3'],
    ]);
  });

  it('keeps escaped pipes inside a cell', () => {
    expect(splitGfmRow('| a \\| b | c |')).toEqual(['a | b', 'c']);
  });

  it('ignores tables in code fences and pipes without a delimiter row', () => {
    expect(parseGfmTables('```\n| a | b |\n|---|---|\n```\n\n| x | y |\n| 1 | 2 |')).toHaveLength(0);
  });

  it('needs as many delimiter cells as header cells', () => {
    expect(parseGfmTables('| a | b |\n|---|\n| 1 | 2 |')).toHaveLength(0);
  });
});

describe('parseHtmlTables', () => {
  it('reads spans, headings and text with breaks and entities', () => {
    const [t] = parseHtmlTables(
      '<table><thead><tr><th colspan="2">Head</th></tr></thead>' +
        '<tbody><tr><td rowspan=2>A&amp;B</td><td>x<br/>y</td></tr><tr><td><b>z</b></td></tr></tbody></table>',
    );
    expect(t.rows).toEqual([
      [{ text: 'Head', rowspan: 1, colspan: 2, header: true }],
      [
        { text: 'A&B', rowspan: 2, colspan: 1, header: false },
        { text: 'x\ny', rowspan: 1, colspan: 1, header: false },
      ],
      [{ text: 'z', rowspan: 1, colspan: 1, header: false }],
    ]);
  });

  it('makes a nested table a table of its own, its words in the outer cell too', () => {
    const tables = parseHtmlTables(
      '<table><tr><td>outer <table><tr><td>inner</td><td>two<br>lines</td></tr></table> tail</td><td>b</td></tr></table>',
    );
    expect(tables.map(texts)).toEqual([[['outer\ninner two\nlines\ntail', 'b']], [['inner', 'two\nlines']]]);
  });

  it('tolerates unclosed cells and rows, and cells outside a row', () => {
    const [t] = parseHtmlTables('<TABLE><td>a<td>b<tr><td>c</TABLE>');
    expect(texts(t)).toEqual([['a', 'b'], ['c']]);
  });

  it('finds HTML tables embedded in Markdown next to GFM ones', () => {
    const tables = parseMarkdownTables('| a |\n|---|\n| 1 |\n\n<table><tr><td>h</td></tr></table>');
    expect(tables.map(texts)).toEqual([[['a'], ['1']], [['h']]]);
  });
});

describe('htmlToText', () => {
  it('keeps the visible text, one block per line', () => {
    expect(
      htmlToText(
        '<html><head><title>T</title><style>p{}</style></head><body><p>One&nbsp;two</p><div>삼강</div></body>',
      ),
    ).toBe('One two\n삼강');
  });
});

describe('parseDoclingTables', () => {
  it('reads table_cells with their offsets and keeps a spanning cell once', () => {
    const cell = (r0: number, r1: number, c0: number, c1: number, text: string, header = false): object => ({
      start_row_offset_idx: r0,
      end_row_offset_idx: r1,
      start_col_offset_idx: c0,
      end_col_offset_idx: c1,
      text,
      column_header: header,
    });
    const doc = {
      tables: [
        {
          data: {
            num_rows: 2,
            num_cols: 2,
            table_cells: [cell(0, 2, 0, 1, 'tall', true), cell(0, 1, 1, 2, 'b', true), cell(1, 2, 1, 2, 'd')],
          },
        },
        {
          data: {
            num_rows: 1,
            num_cols: 2,
            table_cells: [],
            grid: [[cell(0, 1, 0, 2, 'wide'), cell(0, 1, 0, 2, 'wide')]],
          },
        },
      ],
    };
    const [first, second] = parseDoclingTables(doc);
    expect(first.rows).toEqual([
      [
        { text: 'tall', rowspan: 2, colspan: 1, header: true },
        { text: 'b', rowspan: 1, colspan: 1, header: true },
      ],
      [{ text: 'd', rowspan: 1, colspan: 1, header: false }],
    ]);
    expect(second.rows).toEqual([[{ text: 'wide', rowspan: 1, colspan: 2, header: false }]]);
  });

  it('fills the slots table_cells leaves out with empty cells, as the grid shows them', () => {
    const cell = (r: number, c: number, text: string): object => ({
      start_row_offset_idx: r,
      end_row_offset_idx: r + 1,
      start_col_offset_idx: c,
      end_col_offset_idx: c + 1,
      text,
    });
    const [only] = parseDoclingTables({
      tables: [
        { data: { num_rows: 2, num_cols: 3, table_cells: [cell(0, 0, 'a'), cell(0, 2, 'c'), cell(1, 1, 'x')] } },
      ],
    });
    expect(only.rows.map((row) => row.map((c) => c.text))).toEqual([
      ['a', '', 'c'],
      ['', 'x', ''],
    ]);
  });

  it('returns nothing for documents without tables', () => {
    expect(parseDoclingTables({})).toEqual([]);
    expect(parseDoclingTables(null)).toEqual([]);
  });
});

describe('teds', () => {
  const reference = table(['Name', 'Qty', 'Price'], ['apple', '3', '1.20'], ['pear', '5', '0.80']);

  it('is 1 for identical tables, whatever the Markdown inside the cells', () => {
    expect(teds(reference, reference).score).toBe(1);
    const formatted = table(['**Name**', 'Qty', '*Price*'], ['apple', '3', '1.20'], ['pear', '5', '0.80']);
    expect(teds(formatted, reference).score).toBe(1);
  });

  it('drops below 1 when a column is missing', () => {
    const missing = table(['Name', 'Qty'], ['apple', '3'], ['pear', '5']);
    // 13 nodes against 10: three cells deleted.
    expect(teds(missing, reference).score).toBeCloseTo(1 - 3 / 13);
  });

  it('drops when a row span differs even if the texts agree', () => {
    const spanned = table(['Group', 'Item'], [['fruit', 2, 1], 'apple'], ['pear']);
    const flat = table(['Group', 'Item'], ['fruit', 'apple'], ['', 'pear']);
    const result = teds(flat, spanned).score;
    expect(result).toBeLessThan(1);
    expect(teds(spanned, spanned).score).toBe(1);
    const colspan = table([['Group', 1, 2]], ['fruit', 'apple']);
    const noColspan = table(['Group'], ['fruit', 'apple']);
    expect(teds(noColspan, colspan).score).toBeLessThan(1);
  });

  it('charges cell text differences partially', () => {
    const typo = table(['Name', 'Qty', 'Price'], ['appel', '3', '1.20'], ['pear', '5', '0.80']);
    const score = teds(typo, reference).score;
    expect(score).toBeGreaterThan(0.95);
    expect(score).toBeLessThan(1);
  });

  it('scores an empty prediction low and never below 0', () => {
    const empty: Table = { rows: [] };
    expect(teds(empty, reference).score).toBeCloseTo(1 / 13);
    expect(teds(reference, empty).score).toBeGreaterThanOrEqual(0);
  });

  it('falls back to row alignment for very large tables, agreeing with the exact distance on simple edits', () => {
    const missingRow = table(['Name', 'Qty', 'Price'], ['pear', '5', '0.80']);
    const exact = teds(missingRow, reference);
    const aligned = teds(missingRow, reference, 0);
    expect(exact.exact).toBe(true);
    expect(aligned.exact).toBe(false);
    expect(aligned.distance).toBeCloseTo(exact.distance);
    expect(teds(reference, reference, 0).score).toBe(1);
  });
});

describe('matchTables', () => {
  const a = table(['A', 'B'], ['1', '2']);
  const b = table(['X', 'Y', 'Z'], ['7', '8', '9']);

  it('pairs each reference with its best prediction, whatever the order', () => {
    const match = matchTables([b, a], [a, b])!;
    expect(match.paired).toEqual([1, 0]);
    expect(match.mean).toBe(1);
  });

  it('scores a reference table without a partner 0 and ignores extra predictions', () => {
    const match = matchTables([a], [a, b])!;
    expect(match.scores[0]).toBe(1);
    expect(match.scores[1]).toBe(0);
    expect(match.mean).toBe(0.5);
    expect(matchTables([a, b, a], [a])!.mean).toBe(1);
  });

  it('uses each prediction once', () => {
    const match = matchTables([a], [a, a])!;
    expect(match.scores).toEqual([1, 0]);
  });

  it('has no score without reference tables', () => {
    expect(matchTables([a], [])).toBeUndefined();
  });

  it('pairs no reference with a table that shares none of its cells: a missed table scores 0', () => {
    // Same shape, other contents: TEDS alone would credit it for most of the grid.
    const other = table(['C', 'D'], ['3', '4']);
    const match = matchTables([other], [a])!;
    expect(match.paired).toEqual([-1]);
    expect(match.scores).toEqual([0]);
  });
});

describe('sameTable as a reader sees a table', () => {
  it('ends a row span at the last row, as a browser lays it out', () => {
    const rows = (span: number): Table => ({
      rows: [
        [
          { text: 'year', rowspan: span, colspan: 1, header: false },
          { text: 'a', rowspan: 1, colspan: 1, header: false },
        ],
        [{ text: 'b', rowspan: 1, colspan: 1, header: false }],
      ],
    });
    expect(sameTable(rows(2), rows(7))).toBe(true);
    expect(sameTable(rows(1), rows(2))).toBe(false);
  });

  it('reads the items of a list in a cell by their words, numbered or not', () => {
    expect(cellWords('1. Fly south<br>2. Build nests')).toBe(cellWords('Fly south\nBuild nests'));
    expect(cellWords('• Pond\n• Marsh')).toBe(cellWords('Pond Marsh'));
    expect(cellWords('1999 was a year')).not.toBe(cellWords('was a year'));
  });
});

describe('structureExactness', () => {
  const spanned = table([['Title', 1, 2]], ['a', 'b']);

  it('counts a reference table matched when a predicted one has its grid, spans and normalised texts', () => {
    expect(sameTable(table(['TITLE!'], ['a', 'b']), table(['title'], ['a', 'b']))).toBe(true);
    expect(sameTable(table(['Title', ''], ['a', 'b']), spanned)).toBe(false);
    expect(sameTable(table(['a', 'b']), table(['a', 'b'], ['c', 'd']))).toBe(false);
    expect(sameTable(table(['a', 'b']), table(['a', 'c']))).toBe(false);
    const result = structureExactness(
      [table(['x']), table([['title', 1, 2]], ['A', 'B'])],
      [spanned, table(['y', 'z'])],
    );
    expect(result).toEqual({ exact: [true, false], counted: 2, matched: 1 });
  });

  it('uses each predicted table once', () => {
    expect(structureExactness([table(['a'])], [table(['a']), table(['a'])])).toEqual({
      exact: [true, false],
      counted: 2,
      matched: 1,
    });
  });

  it('does not count an all-empty reference table, dropped or kept', () => {
    const empty = table(['', ''], [' ', '']);
    expect(tableHasText(empty)).toBe(false);
    expect(tableHasText(table(['', '·'], ['', '1']))).toBe(true);
    expect(structureExactness([table(['a'])], [empty, table(['a'])])).toEqual({
      exact: [null, true],
      counted: 1,
      matched: 1,
    });
    expect(structureExactness([], [empty])).toBeUndefined();
  });
});

describe('cellContentF1', () => {
  it('is 1 for the same cells in another grid and drops when a value is split or merged', () => {
    const reference = table(['Country', 'GNP'], ['Germany', '27.5'], ['France', '25.0']);
    expect(cellContentF1(table(['Country', 'GNP', 'Germany', '27.5', 'France', '25.0']), reference)).toBe(1);
    // Two cells merged into one: 4 of 6 reference cells found, 5 predicted.
    const merged = table(['Country', 'GNP'], ['Germany 27.5'], ['France', '25.0']);
    expect(cellContentF1(merged, reference)).toBeCloseTo((2 * 4) / (5 + 6), 10);
  });

  it('ignores empty cells, case and punctuation, and counts a repeated value as often as it appears', () => {
    expect(cellContentF1(table(['a', '', 'B.'], ['b', 'b']), table(['A', 'b'], ['b', 'b']))).toBe(1);
    // One "b" too many: 4 of 5 predicted cells are in the reference's 4.
    expect(cellContentF1(table(['a', '', 'B.'], ['b', 'b', 'b']), table(['A', 'b'], ['b', 'b']))).toBeCloseTo(
      8 / 9,
      10,
    );
  });
});

describe('adjacencyRelations', () => {
  it('relates each non-empty cell to its next non-empty neighbour right and below, skipping empty cells', () => {
    const relations = adjacencyRelations(table(['', 'x', 'y'], ['a', '', '1']));
    expect(relations.sort()).toEqual(['below\u0000y\u00001', 'right\u0000a\u00001', 'right\u0000x\u0000y'].sort());
  });

  it('relates a spanning cell to every neighbour along its span, once each', () => {
    // A header spanning two columns over two values, and a row label spanning both rows.
    const relations = adjacencyRelations(table(['', ['Sales', 1, 2]], [['EU', 2, 1], '1', '2'], ['3', '4']));
    expect(relations.filter((r) => r.startsWith('below\u0000sales')).sort()).toEqual([
      'below\u0000sales\u00001',
      'below\u0000sales\u00002',
    ]);
    expect(relations.filter((r) => r.startsWith('right\u0000eu')).sort()).toEqual([
      'right\u0000eu\u00001',
      'right\u0000eu\u00003',
    ]);
  });
});

describe('adjacencyF1', () => {
  it('is 1 for the same grid and sees a column merged into its neighbour', () => {
    const reference = table(['', 'A', 'B'], ['x', '1', '2'], ['y', '3', '4']);
    expect(adjacencyF1(reference, reference)).toBe(1);
    const merged = table(['', 'A B'], ['x', '1 2'], ['y', '3 4']);
    expect(adjacencyF1(merged, reference)).toBeLessThan(0.5);
  });
});

describe('scoreTables', () => {
  const first = table(['', 'A', 'B'], ['x', '1', '2'], ['y', '3', '4']);
  const second = table(['Name', 'Share'], ['Casino', '24.8'], ['Géant', '20.0']);

  it('pairs each reference table with the output table of the best cell content and scores it four ways', () => {
    const scores = scoreTables([second, first], [first, second])!;
    expect(scores.tables.map((t) => t.paired)).toEqual([1, 0]);
    expect(scores).toMatchObject({ cellF1: 1, adjacencyF1: 1, teds: 1, exactGrid: 1, recall: 1, precision: 1 });
  });

  it('scores a missed table 0 and lowers recall; an extra or split table lowers precision', () => {
    const missed = scoreTables([first], [first, second])!;
    expect(missed.tables[1]).toMatchObject({ paired: -1, cellF1: 0, detected: false });
    expect(missed).toMatchObject({ recall: 0.5, precision: 1, cellF1: 0.5, exactGrid: 0.5 });
    const split = scoreTables([table(['', 'A', 'B'], ['x', '1', '2']), table(['y', '3', '4'])], [first])!;
    expect(split.tables[0].detected).toBe(true);
    expect(split.tables[0].exact).toBe(false);
    expect(split).toMatchObject({ recall: 1, precision: 0.5 });
  });

  it('takes one output table for one reference only, and leaves out tables without text', () => {
    const both = table(['', 'A', 'B', 'Name', 'Share'], ['x', '1', '2', 'Casino', '24.8']);
    const scores = scoreTables([both, table(['', ''])], [first, second, table(['', ''])])!;
    expect(scores.tables).toHaveLength(2);
    expect(scores.tables.filter((t) => t.paired === 0)).toHaveLength(1);
    expect(scores.predicted).toBe(1);
    expect(scoreTables([first], [table([''])])).toBeUndefined();
  });
});

describe('isTablesOnlyReference', () => {
  it('reads the reference-scope meta of a tables-only export', () => {
    expect(isTablesOnlyReference('<head><meta name="reference-scope" content="tables"></head>')).toBe(true);
    expect(isTablesOnlyReference('<head><meta name="generator" content="docling"></head><table></table>')).toBe(false);
  });
});

describe('poolTableScores', () => {
  it('weighs every reference table alike and pools detection over documents', () => {
    const a = table(['', 'A'], ['x', '1']);
    const b = table(['', 'B'], ['y', '2']);
    const c = table(['', 'C'], ['z', '3']);
    const one = scoreTables([a], [a])!;
    const two = scoreTables([b, table(['q', 'r'])], [b, c])!;
    const pooled = poolTableScores([one, two])!;
    expect(pooled).toMatchObject({ documents: 2, references: 3, predicted: 3, exactGrid: 2 / 3 });
    expect(pooled.recall).toBeCloseTo(2 / 3, 10);
    expect(pooled.precision).toBeCloseTo(2 / 3, 10);
    expect(poolTableScores([])).toBeUndefined();
  });
});
