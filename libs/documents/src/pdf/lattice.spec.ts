import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { structuredResult } from '../blocks/structured-result';
import { extractPdf } from './extract-pdf';
import { tableMarkdown } from '@docconv/model';
import { ruledTables } from './lattice';
import { pageDrawing, pageRules, type DrawingOps, type Rule } from './rules';
import { pdfBytes } from './testing/pdf-bytes';
import { run } from './testing/text-runs';

const h = (y: number, x0: number, x1: number): Rule => ({ x0, y0: y, x1, y1: y });
const v = (x: number, y0: number, y1: number): Rule => ({ x0: x, y0, x1: x, y1 });

/** A fully ruled grid: rows at `ys`, columns at `xs`. */
function grid(xs: number[], ys: number[]): Rule[] {
  return [...ys.map((y) => h(y, xs[0], xs[xs.length - 1])), ...xs.map((x) => v(x, ys[0], ys[ys.length - 1]))];
}

describe('ruled tables', () => {
  it('reads a ruled grid cell by cell and leaves the text around it alone', () => {
    const rules = grid([100, 200, 300], [100, 120, 140, 160]);
    const runs = [
      run('Above the table', 100, 80),
      run('Name', 105, 115),
      run('Price', 205, 115),
      run('Apples', 105, 135),
      run('1.20', 205, 135),
      run('Pears', 105, 155),
      run('0.90', 205, 155),
      run('Below the table', 100, 190),
    ];
    const { tables, rest } = ruledTables(rules, runs);
    expect(tables).toHaveLength(1);
    expect(rest.map((r) => r.text)).toEqual(['Above the table', 'Below the table']);
    expect(tableMarkdown(tables[0].rows)).toBe(
      ['| Name | Price |', '| --- | --- |', '| Apples | 1.20 |', '| Pears | 0.90 |'].join('\n'),
    );
  });

  it('drops the dot leaders that lead from a row label to its figures', () => {
    const rules = grid([100, 300, 350], [100, 120, 140, 160]);
    const runs = [
      run('Age', 105, 115),
      run('Count', 305, 115),
      run('All ages . . . . . . . . . . . .', 105, 135),
      run('291', 305, 135),
      run('Aged 6 and older. . . . .', 105, 155),
      run('266', 305, 155),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tableMarkdown(tables[0].rows)).toBe(
      ['| Age | Count |', '| --- | --- |', '| All ages | 291 |', '| Aged 6 and older | 266 |'].join('\n'),
    );
  });

  it('recovers column and row spans from the lines that are not drawn, and writes them as HTML', () => {
    // Header: "Fruit" spans two header rows; "Price" spans the two price columns, which are
    // divided only below it.
    const rules = [
      h(100, 100, 400),
      h(120, 200, 400), // under "Price" only
      h(140, 100, 400),
      h(160, 100, 400),
      v(100, 100, 160),
      v(200, 100, 160),
      v(300, 120, 160), // between the two price columns, not through "Price"
      v(400, 100, 160),
    ];
    const runs = [
      run('Fruit', 105, 125),
      run('Price', 250, 115),
      run('2025', 205, 135),
      run('2026', 305, 135),
      run('Apples', 105, 155),
      run('1.10', 205, 155),
      run('1.20', 305, 155),
    ];
    const { tables } = ruledTables(rules, runs);
    // Each cell stands in the box of the grid slots it covers.
    expect(tables[0].rows).toEqual([
      [
        { text: 'Fruit', rowspan: 2, colspan: 1, box: [100, 100, 200, 140] },
        { text: 'Price', rowspan: 1, colspan: 2, box: [200, 100, 400, 120] },
      ],
      [
        { text: '2025', rowspan: 1, colspan: 1, box: [200, 120, 300, 140] },
        { text: '2026', rowspan: 1, colspan: 1, box: [300, 120, 400, 140] },
      ],
      [
        { text: 'Apples', rowspan: 1, colspan: 1, box: [100, 140, 200, 160] },
        { text: '1.10', rowspan: 1, colspan: 1, box: [200, 140, 300, 160] },
        { text: '1.20', rowspan: 1, colspan: 1, box: [300, 140, 400, 160] },
      ],
    ]);
    expect(tableMarkdown(tables[0].rows)).toBe(
      [
        '<table>',
        '<tr><th rowspan="2">Fruit</th><th colspan="2">Price</th></tr>',
        '<tr><td>2025</td><td>2026</td></tr>',
        '<tr><td>Apples</td><td>1.10</td><td>1.20</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('keeps the columns of body rows the table does not divide, where their words stand apart', () => {
    // Columns ruled in the header only; a title row above runs across them as one sentence.
    const rules = [
      ...[80, 100, 120, 140, 160].map((y) => h(y, 100, 400)),
      v(100, 80, 160),
      v(400, 80, 160),
      v(200, 100, 120),
      v(300, 100, 120),
    ];
    const runs = [
      run('Prices of fruit at two markets, in dollars', 105, 95),
      run('Fruit', 105, 115),
      run('North', 205, 115),
      run('South', 305, 115),
      run('Apples', 105, 135),
      run('1.10', 205, 135),
      run('1.20', 305, 135),
      run('Pears', 105, 155),
      run('0.90', 205, 155),
      run('0.95', 305, 155),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => [cell.text, cell.colspan]))).toEqual([
      [['Prices of fruit at two markets, in dollars', 3]],
      [
        ['Fruit', 1],
        ['North', 1],
        ['South', 1],
      ],
      [
        ['Apples', 1],
        ['1.10', 1],
        ['1.20', 1],
      ],
      [
        ['Pears', 1],
        ['0.90', 1],
        ['0.95', 1],
      ],
    ]);
  });

  it('reads a caption ruled in as the first row and a note ruled in as the last as the text around the table', () => {
    const rules = [...[80, 100, 120, 140, 160].map((y) => h(y, 100, 400)), v(100, 80, 160), v(400, 80, 160)];
    rules.push(v(250, 100, 140));
    const runs = [
      run('Exhibit 4 Prices of fruit', 105, 95),
      run('Fruit', 105, 115),
      run('Price', 255, 115),
      run('Apples', 105, 135),
      run('1.10', 255, 135),
      run('Source: market survey, 2007.', 105, 155),
    ];
    const { tables, rest } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Fruit', 'Price'],
      ['Apples', '1.10'],
    ]);
    expect(rest.map((r) => r.text)).toEqual(['Exhibit 4 Prices of fruit', 'Source: market survey, 2007.']);
  });

  it('splits a run that a producer wrote across several cells', () => {
    const rules = grid([100, 200, 300], [100, 120, 140]);
    const runs = [run('Left Right', 105, 115), run('a', 105, 135), run('b', 205, 135)];
    // "Left Right" is 50 wide at 10 pt; stretch it so "Right" lands in the second column.
    runs[0].width = 140;
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows[0].map((c) => c.text)).toEqual(['Left', 'Right']);
  });

  it('drops the empty slivers a shaded row with offset edges makes, rather than splitting every column', () => {
    // Two columns; the total row is a shaded band whose left and middle edges stand 6 pt inside the grid's.
    const rules = [
      ...grid([100, 300, 400], [100, 120, 140, 160]),
      v(106, 140, 160),
      v(294, 140, 160),
      h(160, 100, 400),
    ];
    const runs = [
      run('Item', 105, 115),
      run('n', 305, 115),
      run('Apples', 105, 135),
      run('77', 305, 135),
      run('Total', 250, 155),
      run('227', 305, 155),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => [cell.text, cell.colspan]))).toEqual([
      [
        ['Item', 1],
        ['n', 1],
      ],
      [
        ['Apples', 1],
        ['77', 1],
      ],
      [
        ['Total', 1],
        ['227', 1],
      ],
    ]);
  });

  it('finds the rows and columns a table rules only around its body, from its words', () => {
    // Ruled above the header, under it and below the body, with one column rule; the body's rows
    // and the last two columns are not drawn.
    const rules = [h(100, 100, 400), h(120, 100, 400), h(180, 100, 400), v(200, 100, 180)];
    const runs = [
      run('Answers', 105, 115),
      run('Freq.', 205, 115),
      run('Percent', 305, 115),
      ...['0', '1', '2', '3'].flatMap((n, i) => [
        run(n, 105, 135 + i * 12),
        run(String(100 + i), 205, 135 + i * 12),
        run(`${20 + i}.5`, 305, 135 + i * 12),
      ]),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Answers', 'Freq.', 'Percent'],
      ['0', '100', '20.5'],
      ['1', '101', '21.5'],
      ['2', '102', '22.5'],
      ['3', '103', '23.5'],
    ]);
  });

  it('opens an undrawn row once where a figure in smaller type stands a little higher than its name', () => {
    // As a scan reads it: the third row's figures are read smaller and sit higher than its name, their tops a point lower.
    const rules = [h(100, 100, 400), h(120, 100, 400), h(184, 100, 400), v(200, 100, 184)];
    const at = (text: string, x: number, y: number, size = 10) => run(text, x, y, size);
    const runs = [
      at('Country', 105, 115),
      at('Fund', 205, 115),
      at('Total', 305, 115),
      ...['Bulgaria', 'Cyprus', 'Estonia', 'Hungary'].flatMap((name, i) => [
        at(name, 105, 135 + i * 14),
        i === 2 ? at('1.1', 205, 160, 6) : at(`${i}.5`, 205, 135 + i * 14),
        i === 2 ? at('12.0', 305, 161, 8) : at(`${10 + i}.0`, 305, 135 + i * 14),
      ]),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Country', 'Fund', 'Total'],
      ['Bulgaria', '0.5', '10.0'],
      ['Cyprus', '1.5', '11.0'],
      ['Estonia', '1.1', '12.0'],
      ['Hungary', '3.5', '13.0'],
    ]);
  });

  it('splits the undrawn rows of a column of figures that fill their cells', () => {
    const rules = grid([100, 160, 220], [100, 120, 170]);
    const values = [
      ['1,087,948', '1,022,490'],
      ['2,586,688', '2,568,738'],
      ['3,867,692', '3,576,723'],
    ];
    const runs = [
      run('Male', 105, 115),
      run('Female', 165, 115),
      ...values.flatMap(([a, b], i) => [run(a, 105, 135 + i * 12), run(b, 165, 135 + i * 12)]),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([['Male', 'Female'], ...values]);
  });

  it('keeps a drawn row whose value stands midway beside two lines of figures as one row', () => {
    // Layers and heads stand midway beside their row's two lines.
    const rules = grid([60, 100, 140, 200, 260, 320], [100, 120, 150, 180]);
    const band = (y: number, layers: string, [a, b]: string[][]) => [
      run(layers, 65, y + 14),
      run('8', 105, y + 14),
      run('OTSL', 145, y + 10),
      run('HTML', 145, y + 21),
      run(a[0], 205, y + 10),
      run(a[1], 205, y + 21),
      run(b[0], 265, y + 10),
      run(b[1], 265, y + 21),
    ];
    const runs = [
      run('Layers', 65, 115),
      run('Heads', 105, 115),
      run('Language', 145, 115),
      run('Simple', 205, 115),
      run('All', 265, 115),
      ...band(120, '6', [
        ['0.965', '0.969'],
        ['0.955', '0.955'],
      ]),
      ...band(150, '4', [
        ['0.938', '0.952'],
        ['0.927', '0.938'],
      ]),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Layers', 'Heads', 'Language', 'Simple', 'All'],
      ['6', '8', 'OTSL HTML', '0.965 0.969', '0.955 0.955'],
      ['4', '8', 'OTSL HTML', '0.938 0.952', '0.927 0.938'],
    ]);
  });

  it('keeps text that wraps inside a cell, and a bullet beside its item, in one cell', () => {
    const rules = grid([100, 200, 300], [100, 120, 180]);
    const wrapped = ['evidence that the', 'instrument measures', 'the concept it is', 'meant to measure'];
    const runs = [
      run('Property', 105, 115),
      run('Reason', 205, 115),
      run('Validity', 105, 135),
      ...wrapped.map((line, i) => run(line, 205, 135 + i * 11, 10)),
      run('•', 105, 146),
    ];
    // The wrapped lines fill the 100 pt cell: 17–19 characters at 5 pt each.
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Property', 'Reason'],
      ['Validity •', wrapped.join(' ')],
    ]);
  });

  it('connects a header ruled off by a double line to the body below it', () => {
    const rules = [
      h(100, 100, 300),
      h(119, 100, 300),
      h(121.5, 100, 300),
      h(160, 100, 300),
      v(100, 100, 119),
      v(200, 100, 119),
      v(300, 100, 119),
      v(100, 121.5, 160),
      v(200, 121.5, 160),
      v(300, 121.5, 160),
    ];
    const runs = [run('Fruit', 105, 115), run('Price', 205, 115), run('Apples', 105, 140), run('1.10', 205, 140)];
    const { tables } = ruledTables(rules, runs);
    expect(tables).toHaveLength(1);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Fruit', 'Price'],
      ['Apples', '1.10'],
    ]);
  });

  it('keeps a checkbox drawn just under a row rule out of the grid', () => {
    // The box's top edge stands 3 pt under the rule between the rows, inside the answer's cell.
    const box = [h(123, 250, 261), h(134, 250, 261), v(250, 123, 134), v(261, 123, 134)];
    const rules = [...grid([100, 200, 300], [100, 120, 140]), ...box];
    const runs = [
      run('Question', 105, 115),
      run('Answer', 205, 115),
      run('Mandatory?', 105, 135),
      run('Yes', 205, 135),
    ];
    const { tables } = ruledTables(rules, runs);
    expect(tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Question', 'Answer'],
      ['Mandatory?', 'Yes'],
    ]);
  });

  it("leaves a chart's grid lines to the running text", () => {
    // Grid lines every 50 pt; the values stand in two of the bands, the others are empty.
    const rules = grid([100, 150, 200, 250, 300, 350], [100, 130, 160]);
    const runs = [run('30.5', 105, 120), run('49.0', 205, 120), run('29.7', 105, 150), run('48.6', 205, 150)];
    expect(ruledTables(rules, runs).tables).toEqual([]);
  });

  it('leaves a frame around a drawing to the running text', () => {
    // Two charts side by side in a ruled box; their curves make a figure region in the left half.
    const rules = grid([100, 250, 400], [100, 120, 260]);
    const runs = [
      run('Portugal (bp)', 105, 115),
      run('Spain (bp)', 255, 115),
      run('450', 105, 140),
      run('450', 255, 140),
    ];
    expect(ruledTables(rules, runs).tables).toHaveLength(1);
    expect(ruledTables(rules, runs, [{ x0: 120, y0: 130, x1: 240, y1: 250 }]).tables).toEqual([]);
  });

  it('leaves frames and diagrams to the running text', () => {
    const frame = [h(100, 100, 400), h(200, 100, 400), v(100, 100, 200), v(400, 100, 200)];
    expect(ruledTables(frame, [run('A boxed note', 110, 150)]).tables).toEqual([]);

    // Four boxes and a connector that stops half way through one of them: a drawing, not a grid.
    const diagram = [...grid([100, 200, 300], [100, 140, 180]), h(120, 150, 250), v(250, 100, 120)];
    const runs = [run('Step one', 105, 115), run('Step two', 205, 135), run('Step three', 105, 175)];
    const { tables, rest } = ruledTables(diagram, runs);
    expect(tables).toEqual([]);
    expect(rest).toEqual(runs);
  });

  it('leaves a single boxed row (a shaded band of a table the page does not rule) to the running text', () => {
    const band = grid([100, 200, 300, 400, 500], [100, 120]);
    const runs = [run('Pears', 105, 115), run('0.80', 205, 115), run('0.95', 305, 115), run('0.85', 405, 115)];
    const { tables, rest } = ruledTables(band, runs);
    expect(tables).toEqual([]);
    expect(rest).toEqual(runs);
  });
});

describe('ruling lines from drawing operators', () => {
  const ops: DrawingOps = {
    save: 1,
    restore: 2,
    transform: 3,
    constructPath: 4,
    setFillRGBColor: 5,
    stroke: 10,
    closeStroke: 11,
    fill: 12,
    eoFill: 13,
    fillStroke: 14,
    eoFillStroke: 15,
    closeFillStroke: 16,
    closeEOFillStroke: 17,
  };
  const MOVE = 0;
  const LINE = 1;
  const CLOSE = 4;
  const rect = (x: number, y: number, w: number, hgt: number) =>
    new Float32Array([MOVE, x, y, LINE, x + w, y, LINE, x + w, y + hgt, LINE, x, y + hgt, CLOSE]);

  it('finds stroked lines under the current transform and thin filled rectangles, in top-down page space', () => {
    const fnArray = [ops.save, ops.transform, ops.constructPath, ops.restore, ops.constructPath];
    const argsArray = [
      null,
      [1, 0, 0, 1, 50, 0], // shift right by 50
      [ops.stroke, [new Float32Array([MOVE, 0, 700, LINE, 100, 700])], null],
      null,
      [ops.fill, [rect(10, 600, 1, 80)], null],
    ];
    const rules = pageRules({ fnArray, argsArray }, ops, [0, 0, 600, 800]);
    expect(rules).toEqual([
      { x0: 50, y0: 100, x1: 150, y1: 100 },
      { x0: 10.5, y0: 120, x1: 10.5, y1: 200 },
    ]);
  });

  it('takes a rule drawn as a filled rectangle under a point wide as a rule, not as a figure shape', () => {
    // Word's PDF export draws each border of a table as a filled rectangle 0.96 pt thick.
    const fnArray = [ops.constructPath, ops.constructPath, ops.constructPath];
    const argsArray = [
      [ops.eoFill, [rect(100, 600, 0.96, 80)], null],
      [ops.eoFill, [rect(100, 680, 200, 0.96)], null],
      [ops.stroke, [new Float32Array([MOVE, 0, 0, LINE, 30, 40])], null], // a diagonal: a shape
    ];
    const { rules, shapes } = pageDrawing({ fnArray, argsArray }, ops, [0, 0, 600, 800]);
    const rounded = (r: Rule) => [r.x0, r.y0, r.x1, r.y1].map((v) => Math.round(v * 100) / 100);
    expect(rules.map(rounded)).toEqual([
      [100.48, 120, 100.48, 200],
      [100, 119.52, 300, 119.52],
    ]);
    expect(shapes).toEqual([{ x0: 0, y0: 760, x1: 30, y1: 800 }]);
  });

  it('ignores white fills, page backgrounds and curves', () => {
    const fnArray = [ops.constructPath, ops.setFillRGBColor, ops.constructPath, ops.constructPath];
    const argsArray = [
      [ops.fill, [rect(0, 0, 600, 800)], null], // page background
      ['#ffffff'],
      [ops.fill, [rect(100, 100, 200, 20)], null], // white cell background
      [ops.stroke, [new Float32Array([MOVE, 0, 0, 2, 10, 10, 20, 10, 30, 0])], null], // a curve
    ];
    expect(pageRules({ fnArray, argsArray }, ops, [0, 0, 600, 800])).toEqual([]);
  });
});

describe('ruled tables in a PDF', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docconv-lattice-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // A font of the standard 14 has no program in the file; an embedded TrueType subset has one,
  // which pdf.js reads for its text only (patches/pdfjs-dist): the rules drawn after the text
  // that uses it must still be in the page's operator list.
  it.each([
    ['Helvetica, not embedded', 'Helvetica', false],
    ['DejaVu Sans, an embedded TrueType subset', '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', true],
  ])('come out of the text layer as tables with their spans, in reading order (%s)', async (_, font, embedded) => {
    const bytes = await pdfBytes((doc) => {
      doc.addPage({ size: 'A4', margin: 50 });
      doc.font(font).fontSize(10).text('Quarterly prices are shown below.', 60, 60);
      // Header row 1: Fruit (two rows high) | Price (two columns wide); header row 2: 2025 | 2026.
      const [x0, x1, x2, x3] = [60, 200, 300, 400];
      const [y0, y1, y2, y3, y4] = [100, 120, 140, 160, 180];
      doc.lineWidth(0.5);
      for (const y of [y0, y2, y3, y4]) doc.moveTo(x0, y).lineTo(x3, y).stroke();
      doc.moveTo(x1, y1).lineTo(x3, y1).stroke();
      for (const x of [x0, x1, x3]) doc.moveTo(x, y0).lineTo(x, y4).stroke();
      doc.moveTo(x2, y1).lineTo(x2, y4).stroke();
      const cell = (text: string, x: number, y: number) => doc.text(text, x + 5, y + 5, { lineBreak: false });
      cell('Fruit', x0, y1 - 10);
      cell('Price', x1 + 60, y0);
      cell('2025', x1, y1);
      cell('2026', x2, y1);
      cell('Apples', x0, y2);
      cell('1.10', x1, y2);
      cell('1.20', x2, y2);
      cell('Pears', x0, y3);
      cell('0.80', x1, y3);
      cell('0.95', x2, y3);
      doc.text('Prices are in euros.', 60, 200);
    });
    expect(bytes.includes('/FontFile2')).toBe(embedded);
    const path = join(dir, 'prices.pdf');
    await writeFile(path, bytes);

    const extraction = await extractPdf(path, 'prices.pdf', () => undefined);
    const { markdown } = extraction;
    expect(markdown).toBe(
      [
        'Quarterly prices are shown below.',
        '',
        '<table>',
        '<tr><th rowspan="2">Fruit</th><th colspan="2">Price</th></tr>',
        '<tr><td>2025</td><td>2026</td></tr>',
        '<tr><td>Apples</td><td>1.10</td><td>1.20</td></tr>',
        '<tr><td>Pears</td><td>0.80</td><td>0.95</td></tr>',
        '</table>',
        '',
        'Prices are in euros.',
        '',
      ].join('\n'),
    );
    // The structured result gives each cell its place in the grid, its page and the box the rules draw around it.
    const result = structuredResult(markdown, [
      {
        file: 'prices.pdf',
        kind: 'pdf',
        start: 0,
        end: markdown.length,
        headed: false,
        pages: extraction.placed,
        reports: extraction.pages,
        document: extraction.document,
      },
    ]);
    const cells = result.blocks.find((block) => block.type === 'table')?.cells ?? [];
    expect(cells.filter((cell) => ['Price', 'Apples', '1.20'].includes(cell.text))).toEqual([
      { row: 0, column: 1, rowspan: 1, colspan: 2, header: true, text: 'Price', page: 1, box: [200, 100, 400, 120] },
      { row: 2, column: 0, rowspan: 1, colspan: 1, header: false, text: 'Apples', page: 1, box: [60, 140, 200, 160] },
      { row: 2, column: 2, rowspan: 1, colspan: 1, header: false, text: '1.20', page: 1, box: [300, 140, 400, 160] },
    ]);
  });

  it('reads a table whose every other row is a shaded band, not ruled, as one table', async () => {
    const bytes = await pdfBytes((doc) => {
      doc.addPage({ size: 'A4', margin: 50 });
      doc.font('Helvetica').fontSize(10);
      const xs = [60, 200, 330, 460];
      const rows = [
        ['Fruit', 'Spring', 'Summer', 'Autumn'],
        ['Apples', '1.10', '1.20', '1.05'],
        ['Pears', '0.80', '0.95', '0.85'],
        ['Plums', '2.10', '2.40', '2.00'],
        ['Figs', '3.10', '3.30', '3.20'],
      ];
      rows.forEach((cells, r) => {
        const y = 100 + r * 16;
        // Each cell of a band is its own filled rectangle, as table generators draw them.
        if (r % 2 === 1) [...xs, 540].slice(1).forEach((x, c) => doc.rect(xs[c], y, x - xs[c], 16).fill('#7f7fff'));
        doc.fillColor('black');
        cells.forEach((text, c) => doc.text(text, xs[c] + 5, y + 4, { lineBreak: false }));
      });
      doc.text('Prices are in euros.', 60, 200);
    });
    const path = join(dir, 'banded.pdf');
    await writeFile(path, bytes);

    const { markdown } = await extractPdf(path, 'banded.pdf', () => undefined);
    expect(markdown).toBe(
      [
        '| Fruit | Spring | Summer | Autumn |',
        '| --- | --- | --- | --- |',
        '| Apples | 1.10 | 1.20 | 1.05 |',
        '| Pears | 0.80 | 0.95 | 0.85 |',
        '| Plums | 2.10 | 2.40 | 2.00 |',
        '| Figs | 3.10 | 3.30 | 3.20 |',
        '',
        'Prices are in euros.',
        '',
      ].join('\n'),
    );
  });
});
