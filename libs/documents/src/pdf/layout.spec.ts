import { layoutDocument } from './layout-document';
import { buildLines, type TextRun } from './layout';
import { withRulesUnder } from './lattice';
import { run, page } from './testing/text-runs';

describe('PDF layout', () => {
  it('reads a two-column page column by column, even when both columns share baselines', () => {
    const runs: TextRun[] = [];
    for (let i = 0; i < 5; i++) {
      runs.push(run(`left line ${i} of the first column`, 40, 100 + i * 14));
      runs.push(run(`right line ${i} of the second column`, 330, 100 + i * 14));
    }
    const markdown = layoutDocument([page(runs)]);
    expect(markdown.indexOf('left line 4')).toBeLessThan(markdown.indexOf('right line 0'));
    expect(markdown).not.toMatch(/first column right line/);
    expect(markdown).toMatch(/left line 4 of the first column\n\nright line 0/);
  });

  it('drops running heads numbered with their page, even in type larger than the body', () => {
    const pages = [1, 2, 3, 4, 5, 6].map((n) =>
      page([
        run(n % 2 === 0 ? `${n + 10} A. Author` : `Guide for authors ${n + 10}`, 40, 38, 14),
        ...Array.from({ length: 4 }, (_, i) => run(`Body text ${i} of page ${n} that matters.`, 40, 200 + i * 12)),
      ]),
    );
    const markdown = layoutDocument(pages);
    expect(markdown).not.toMatch(/Guide for authors|A\. Author/);
    expect(markdown).toContain('Body text 0 of page 6 that matters.');
  });

  it('drops running heads and page numbers that repeat on most pages', () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page([
        run('Annual Report 2026', 40, 30),
        run(`Body text of page ${n} that matters.`, 40, 200),
        run(String(n), 300, 780),
      ]),
    );
    const markdown = layoutDocument(pages);
    expect(markdown).not.toContain('Annual Report 2026');
    expect(markdown).not.toMatch(/^\d$/m);
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Body text of page ${n} that matters.`);
  });

  it('makes headings from larger type, joins paragraph lines and mends hyphenation', () => {
    const markdown = layoutDocument([
      page([
        run('Introduction', 40, 60, 18),
        run('The conver-', 40, 100),
        run('sion keeps words whole and', 40, 112),
        run('joins the lines of a paragraph.', 40, 124),
        run('A second paragraph after a gap.', 40, 170),
      ]),
    ]);
    expect(markdown).toContain('# Introduction\n');
    expect(markdown).toContain('The conversion keeps words whole and joins the lines of a paragraph.');
    expect(markdown).toMatch(/paragraph\.\n\nA second paragraph/);
  });

  it('joins an address broken at a line end without a space, its own hyphen kept', () => {
    const markdown = layoutDocument([
      page([
        run('Tables for every state are available at http://www.example.gov/', 40, 100),
        run('statistics/state-tables/index.html and are updated each year at', 40, 112),
        run('www.example.org/reports/annual-', 40, 124),
        run('summary.pdf, or from https://example.org/.', 40, 136),
        run('Questions go to the office of statistics.', 40, 148),
      ]),
    ]);
    expect(markdown).toContain('http://www.example.gov/statistics/state-tables/index.html and');
    expect(markdown).toContain('www.example.org/reports/annual-summary.pdf, or');
    expect(markdown).toContain('https://example.org/. Questions go');
  });

  it('reads a contents entry outside a table as its label and page, never a heading or run into the next', () => {
    const markdown = layoutDocument([
      page([
        run('1 Introduction . . . . . . . . . . . . . . . . . . . . 1', 40, 100, 12),
        run('1.1 Scope of the survey . . . . . . . . . . . . . . 3', 52, 116),
        run('The survey asked every household about its members and their work.', 40, 200),
        run('It was answered by most of them within the month it ran.', 40, 212),
      ]),
    ]);
    expect(markdown).toMatch(/^1 Introduction 1\n\n1\.1 Scope of the survey 3\n\nThe survey/);
  });

  it('puts accents drawn over a letter on that letter', () => {
    // TeX draws `á` as an acute accent moved back over the `a`: the runs overlap.
    const lines = buildLines([
      { ...run('We thank J\u00b4', 72, 100), width: 42 },
      { ...run('an Min\u00b4', 109, 100), width: 43 },
      { ...run('a\u02c7', 147, 100), width: 10 },
      { ...run('c for his support.', 153, 100), width: 80 },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['We thank Ján Mináč for his support.']);
  });

  it('writes lines set in a fixed-width face as a fenced code block, keeping their indentation', () => {
    const code = (text: string, x: number, y: number): TextRun => ({
      ...run(text, x, y),
      width: text.length * 6,
      mono: true,
    });
    const markdown = layoutDocument([
      page([
        run('The function adds its arguments:', 40, 100),
        code('function', 40, 120),
        code('add(a, b) {', 94, 120),
        code('return', 64, 132),
        code('a + b;', 106, 132),
        code('}', 40, 144),
        run('It returns their sum.', 40, 170),
      ]),
    ]);
    expect(markdown).toContain('```\nfunction add(a, b) {\n    return a + b;\n}\n```');
    expect(markdown).toContain('It returns their sum.');
  });

  it('reads a report typewritten in a fixed-width face as paragraphs and tables, its code alone as code', () => {
    // Each word a run of its own, 6 pt a character, as a typewriter face sets them.
    const typed = (text: string, x: number, y: number): TextRun[] =>
      [...text.matchAll(/\S+/g)].map((word) => ({
        ...run(word[0], x + word.index * 6, y),
        width: word[0].length * 6,
        mono: true,
      }));
    const markdown = layoutDocument([
      page([
        ...typed('Sample sizes were chosen for each group of', 40, 100),
        ...typed('the survey, as the table below shows.', 40, 112),
        ...typed('Group', 40, 140),
        ...typed('Size', 160, 140),
        ...typed('Rate', 260, 140),
        ...['Children', 'Adults', 'Elderly'].flatMap((group, i) => [
          ...typed(group, 40, 154 + i * 12),
          ...typed(String(800 + i * 40), 160, 154 + i * 12),
          ...typed(`0.${9 - i}`, 260, 154 + i * 12),
        ]),
        ...typed('The weights are set in the program:', 40, 220),
        ...typed('weight = base * factor;', 40, 240),
        ...typed('if (weight > 2) { trim(); }', 40, 252),
      ]),
    ]);
    expect(markdown).toContain('Sample sizes were chosen for each group of the survey, as the table below shows.\n');
    expect(markdown).toContain(
      '| Group | Size | Rate |\n| --- | --- | --- |\n| Children | 800 | 0.9 |\n| Adults | 840 | 0.8 |\n| Elderly | 880 | 0.7 |',
    );
    expect(markdown).toContain('```\nweight = base * factor;\nif (weight > 2) { trim(); }\n```');
  });

  it('does not take a face named fixed-width for code when its letters differ in width', () => {
    // An OCR layer's Courier, stretched to each word it covers.
    const stretched = (text: string, x: number, y: number, width: number): TextRun => ({
      ...run(text, x, y),
      width,
      mono: true,
    });
    const markdown = layoutDocument([
      page([
        stretched('minimum', 40, 100, 70),
        stretched('ill', 115, 100, 9),
        stretched('wavelengths', 40, 112, 90),
        stretched('tilt', 135, 112, 12),
      ]),
    ]);
    expect(markdown).not.toContain('```');
  });

  it('puts text set sideways on the line it stands beside', () => {
    const turned = (text: string, x: number, bottom: number): TextRun => ({
      ...run(text, x, bottom),
      width: 10,
      top: bottom - text.length * 5,
    });
    const lines = buildLines([
      run('User action', 40, 200),
      turned('Authority', 300, 230),
      turned('Admin', 320, 230),
      run('Next row', 40, 250),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['User action Authority Admin', 'Next row']);
  });

  it('starts a paragraph at a first-line indent after a sentence ends, not at a hanging indent', () => {
    const markdown = layoutDocument([
      page([
        run('The first paragraph runs over two lines of the page and it', 40, 100),
        run('ends here.', 40, 112),
        run('The second one is set in by an indent and goes', 55, 124),
        run('on over the next line too, which then carries on', 40, 136),
        run('where the sentence was going.', 55, 148),
      ]),
    ]);
    expect(markdown).toContain('it ends here.\n\nThe second one');
    expect(markdown).toContain('then carries on where the sentence');
  });

  it('heads a section with a numbered line set in another face than the body, one level per step of its number', () => {
    const face = (text: string, y: number, font: string): TextRun => ({ ...run(text, 40, y), font });
    const body = Array.from({ length: 6 }, (_, i) =>
      face(`Body text of the section, line ${i}, set in the body face.`, 120 + i * 12, 'Libertine'),
    );
    const markdown = layoutDocument([
      page([
        face('1 INTRODUCTION', 100, 'Biolinum'),
        ...body,
        face('1.1 Scope', 200, 'Biolinum'),
        face('2 Apples are sold by weight', 220, 'Libertine'),
      ]),
    ]);
    expect(markdown).toContain('# 1 INTRODUCTION\n');
    expect(markdown).toContain('## 1.1 Scope\n');
    expect(markdown).not.toContain('# 2 Apples');
  });

  it('goes on with a sentence a page break cut, and starts afresh after one that ended', () => {
    const markdown = layoutDocument([
      page([run('The committee met twice in the spring and', 40, 700)]),
      page([run('agreed on the budget.', 40, 80), run('It met again in May.', 40, 110)]),
      page([run('A new paragraph opens this page.', 40, 80)]),
    ]);
    expect(markdown).toContain('The committee met twice in the spring and agreed on the budget.');
    expect(markdown).toContain('It met again in May.\n\nA new paragraph opens this page.');
  });

  /** Rows of a price list: `count` items from `from` on, the first at `y`. */
  const priceRows = (from: number, y: number, count: number) =>
    Array.from({ length: count }, (_, i) => [
      run(`Item ${from + i}`, 40, y + i * 14),
      run(`${(from + i) * 10}`, 200, y + i * 14),
      run(`${(from + i) * 3}`, 320, y + i * 14),
    ]).flat();

  it('joins a table going on over a page break, with its header once', () => {
    const header = (y: number) => [run('Name', 40, y), run('Price', 200, y), run('Stock', 320, y)];
    const markdown = layoutDocument([
      page([run('Prices as listed in the catalogue.', 40, 600), ...header(640), ...priceRows(1, 654, 4)]),
      page([...header(60), ...priceRows(5, 74, 4), run('Prices include tax.', 40, 200)]),
    ]);
    expect(markdown.match(/\| Name \| Price \| Stock \|/g)).toHaveLength(1);
    expect(markdown).toContain('| Item 4 | 40 | 12 |\n| Item 5 | 50 | 15 |');
  });

  it('joins a table over a page break past a line saying it continues, and not past a heading', () => {
    const continued = layoutDocument([
      page([run('Prices as listed in the catalogue.', 40, 600), ...priceRows(1, 654, 4)]),
      page([run('Table 1 (continued).', 40, 40), ...priceRows(5, 74, 4), run('Prices include tax.', 40, 200)]),
    ]);
    expect(continued).toContain('| Item 4 | 40 | 12 |\n| Item 5 | 50 | 15 |');
    expect(continued).not.toContain('continued');

    const apart = layoutDocument([
      page([run('Prices as listed in the catalogue.', 40, 600), ...priceRows(1, 654, 4)]),
      page([run('Second catalogue', 40, 40, 18), run('Prices as listed there.', 40, 60), ...priceRows(5, 74, 4)]),
    ]);
    expect(apart).toContain('| Item 4 | 40 | 12 |\n\n');
    expect(apart).toContain('Prices as listed there.');
  });

  it('turns bullets into list items', () => {
    const markdown = layoutDocument([page([run('• first point', 40, 100), run('• second point', 40, 112)])]);
    expect(markdown).toContain('- first point\n- second point');
  });

  it('rebuilds a table from aligned columns, keeping rows with a missing cell aligned', () => {
    const rows = [
      ['Region', 'Q1', 'Q2'],
      ['North', '10', '12'],
      ['South', '', '9'],
      ['East', '7', '8'],
    ];
    const runs = rows.flatMap((cells, r) =>
      cells.filter((c) => c !== '').map((c) => run(c, [40, 200, 360][cells.indexOf(c)], 300 + r * 14)),
    );
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain(
      '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 10 | 12 |\n| South |  | 9 |\n| East | 7 | 8 |',
    );
  });

  it('keeps a table whole over a blank row between its groups, though taller than 3.5 of its sizes as a scan reads them', () => {
    // Rows 11 pt apart in type read as 6 pt; "Projected" stands 22 pt under the last actual row.
    const rows = [
      ['Year', 'Total', 'Public'],
      ['Actual'],
      ['2008', '15.0', '15.3'],
      ['2009', '15.0', '15.4'],
      ['2010', '15.0', '15.2'],
    ];
    const projected = [['Projected'], ['2011', '14.9', '15.2'], ['2012', '14.8', '15.2'], ['2013', '14.8', '15.1']];
    const at = (top: number) => (cells: string[], r: number) =>
      cells.map((c, i) => run(c, [40, 200, 360][i], top + r * 11, 6));
    const actual = rows.flatMap(at(300));
    const markdown = layoutDocument([page([...actual, ...projected.flatMap(at(366))])]);
    expect(markdown).toContain('| 2010 | 15.0 | 15.2 |\n| Projected |  |  |\n| 2011 | 14.9 | 15.2 |');
    // A footer in pieces as near under the table is no section of it.
    const footer = [run('Annex 1', 40, 366, 6), run('Page 12 of 14', 360, 366, 6)];
    const ended = layoutDocument([page([...actual, ...footer])]);
    expect(ended).toContain('| 2010 | 15.0 | 15.2 |\n\nAnnex 1');
  });

  it('opens no empty column at the edge of a table whose widest figures end a hair apart', () => {
    // A scan's word boxes: the two longest figures of the last column end 0.00000000000004 pt apart.
    const names = ['Age', 'Men', 'East', 'Rural', 'Married', 'Single', 'Divorced', 'Widowed', 'Retired'];
    const rows: [string, string, string, number][] = [
      ['Variable', 'Mean', 'Max', 455],
      ...names.map((name, i): [string, string, string, number] => [name, `0.${i}7`, '1', 460]),
      ['Income', '2,127', '22,500', 448],
      ['Wealth', '187,281', '7,720,000', 438.48],
      ['Savings', '38,855', '2,870,000', 438.48],
    ];
    const runs = rows.flatMap(([name, mean, max, x], r) => {
      const y = 300 + r * 14;
      const last = r === rows.length - 1 ? { ...run(max, x, y), width: 483.47999999999996 - x } : run(max, x, y);
      return [run(name, 40, y), run(mean, 240, y), last];
    });
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain('| Variable | Mean | Max |\n| --- | --- | --- |\n| Age | 0.07 | 1 |\n');
    expect(markdown).toContain('| Savings | 38,855 | 2,870,000 |\n');
  });

  it('keeps a line in two pieces above a caption out of the table the caption heads', () => {
    // A page's running head set in two pieces, a line below it the table's caption.
    const runs = [
      run('APPENDIX A', 40, 286),
      run('HIGHLIGHTS FROM THE SURVEY', 330, 286),
      run('Table A-2. Schools and students', 40, 300),
      ...[
        ['System', 'Schools', 'Students'],
        ['Austria', '160', '4,976'],
        ['Belgium', '290', '6,709'],
        ['Canada', '158', '4,670'],
      ].flatMap((cells, r) => cells.map((c, i) => run(c, [40, 200, 360][i], 314 + r * 14))),
    ];
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain(
      'Table A-2. Schools and students\n\n| System | Schools | Students |\n| --- | --- | --- |\n| Austria | 160 | 4,976 |',
    );
  });

  it('reads two tables set side by side (a list wrapped into two blocks) as two tables', () => {
    const block = (first: number, count: number, x: number) =>
      Array.from({ length: count }, (_, i) =>
        [`${first + i}`, `${100 + first + i}`, `${200 + first + i}`].map((text, c) =>
          run(text, x + c * 30, 300 + i * 14),
        ),
      ).flat();
    const markdown = layoutDocument([page([...block(1, 6, 40), ...block(7, 4, 260)])]);
    expect(markdown).toBe(
      [
        '| 1 | 101 | 201 |',
        '| --- | --- | --- |',
        ...[2, 3, 4, 5, 6].map((n) => `| ${n} | ${100 + n} | ${200 + n} |`),
        '',
        '| 7 | 107 | 207 |',
        '| --- | --- | --- |',
        ...[8, 9, 10].map((n) => `| ${n} | ${100 + n} | ${200 + n} |`),
        '',
      ].join('\n'),
    );

    // A wide gap after a table's labels, its columns unlike those beside them, parts nothing.
    const rows = [
      ['A', 'Persons with disabilities', 'Yes', 'No'],
      ['B', 'Children', 'No', 'Yes'],
      ['C', 'Older persons', 'Yes', 'Yes'],
    ];
    const one = layoutDocument([
      page(rows.flatMap((cells, r) => cells.map((text, c) => run(text, [40, 60, 300, 330][c], 300 + r * 14)))),
    ]);
    expect(one).toContain('| A | Persons with disabilities | Yes | No |');
  });

  it('spans a group header over the columns its rule runs under, and splits a run of figures into its values', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = withRulesUnder(
      [
        at('Table 14. Graduates by state', 40, -2),
        at('Actual', 240, 0),
        at('Projected', 400, 0),
        at('State', 40, 1),
        ...['2003', '2004', '2005', '2006'].map((year, i) => at(year, 180 + i * 80, 1)),
        // One string of figures, as some producers write a bold row.
        { ...at('Total', 40, 2), bold: true },
        { ...at('1,200 1,300 1,400 1,500', 180, 2), width: 260, bold: true },
        ...['Maine', 'Ohio'].flatMap((state, r) => [
          at(state, 40, r + 3),
          ...['10', '20', '30', '40'].map((n, i) => at(`${n}${r}`, 180 + i * 80, r + 3)),
        ]),
      ],
      // Under "Actual" over 2003–2004, under "Projected" over 2005–2006.
      [
        { x0: 175, y0: 303, x1: 330, y1: 303 },
        { x0: 335, y0: 303, x1: 470, y1: 303 },
      ],
    );
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain(
      [
        'Table 14. Graduates by state',
        '',
        '<table>',
        '<tr><th rowspan="2">State</th><th colspan="2">Actual</th><th colspan="2">Projected</th></tr>',
        '<tr><td>2003</td><td>2004</td><td>2005</td><td>2006</td></tr>',
        '<tr><td>Total</td><td>1,200</td><td>1,300</td><td>1,400</td><td>1,500</td></tr>',
        '<tr><td>Maine</td><td>100</td><td>200</td><td>300</td><td>400</td></tr>',
        '<tr><td>Ohio</td><td>101</td><td>201</td><td>301</td><td>401</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('spans a label over every column its rule runs under, the first of right-aligned figures in a wide column', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    // Figures end at x 250, 300 and 350; the rule starts at the left of the first column's figures.
    const right = (text: string, end: number, r: number) => at(text, end - text.length * 5, r);
    const rows = [
      ['Statistic', '1', '2', '3'],
      ['Enrollment', '0.3', '0.6', '0.8'],
      ['Expenditures per pupil', '1.3', '2.1', '2.0'],
      ['Teachers', '0.8', '1.4', '1.7'],
    ];
    const runs = withRulesUnder(
      [
        at('Lead time (years)', 255, 0),
        ...rows.flatMap(([stub, ...figures], r) => [
          at(stub, 40, r + 1),
          ...figures.map((f, i) => right(f, 250 + i * 50, r + 1)),
        ]),
      ],
      [{ x0: 233, y0: 303, x1: 352, y1: 303 }],
    );
    expect(layoutDocument([page(runs)])).toContain(
      [
        '<table>',
        '<tr><th rowspan="2">Statistic</th><th colspan="3">Lead time (years)</th></tr>',
        '<tr><td>1</td><td>2</td><td>3</td></tr>',
        '<tr><td>Enrollment</td><td>0.3</td><td>0.6</td><td>0.8</td></tr>',
      ].join('\n'),
    );
  });

  it('ends a table at a note under it, though the note stands in two pieces', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      ...[
        ['Fruit', 'North', 'South'],
        ['Apples', '1.10', '1.20'],
        ['Pears', '0.90', '0.95'],
      ].flatMap((cells, r) => cells.map((c, i) => at(c, [40, 200, 300][i], r))),
      at('Source: market survey.', 40, 3),
      at('Prices in dollars.', 300, 3),
    ];
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain('| Pears | 0.90 | 0.95 |\n\nSource: market survey.');
  });

  it('keeps a section label that runs past the stub in the stub', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      ...['Item', 'North', 'South'].map((t, i) => at(t, [40, 200, 300][i], 0)),
      at('Public elementary and secondary schools', 40, 1),
      ...['Teachers', '12', '14'].map((t, i) => at(t, [40, 200, 300][i], 2)),
      ...['Pupils', '310', '290'].map((t, i) => at(t, [40, 200, 300][i], 3)),
      ...['Schools', '20', '22'].map((t, i) => at(t, [40, 200, 300][i], 4)),
    ];
    expect(layoutDocument([page(runs)])).toContain(
      '| Item | North | South |\n| --- | --- | --- |\n| Public elementary and secondary schools |  |  |\n| Teachers | 12 | 14 |',
    );
  });

  it("leaves a chart's scattered labels as text, not a table half empty", () => {
    // Labels of a scatter chart: four lines, each with two labels, alternating between four columns.
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      ...[at('Austria', 40, 0), at('Belgium', 280, 0)],
      ...[at('Canada', 160, 1), at('Denmark', 400, 1)],
      ...[at('Estonia', 40, 2), at('Finland', 280, 2)],
      ...[at('Greece', 160, 3), at('Hungary', 400, 3)],
    ];
    expect(layoutDocument([page(runs)])).not.toContain('|');
  });

  it('heads a table with a label centred alone over its columns, and stops its header at a section row', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      at('Frequency of use', 230, 0), // 80 wide, centred over 180–350
      at('Substance', 40, 1),
      at('Last month', 180, 1),
      at('Never', 320, 1),
      at('Drugs', 40, 2),
      ...['Cannabis', 'Ecstasy'].flatMap((drug, r) => [
        at(drug, 40, r + 3),
        at(`${r + 1}.5%`, 180, r + 3),
        at(`9${r}.0%`, 320, r + 3),
      ]),
    ];
    expect(layoutDocument([page(runs)])).toContain(
      [
        '<table>',
        '<tr><th rowspan="2">Substance</th><th colspan="2">Frequency of use</th></tr>',
        '<tr><td>Last month</td><td>Never</td></tr>',
        '<tr><td>Drugs</td><td></td><td></td></tr>',
        '<tr><td>Cannabis</td><td>1.5%</td><td>90.0%</td></tr>',
        '<tr><td>Ecstasy</td><td>2.5%</td><td>91.0%</td></tr>',
        '</table>',
      ].join('\n'),
    );
    // The first line of a header cell that wraps ("Age 3" over its own column) is no group label.
    const wrapped = [
      at('Age 3', 180, 0),
      at('Measure', 40, 1),
      at('(Head Start)', 180, 1),
      at('Age 4', 320, 1),
      ...['Vocabulary', 'Letters', 'Numbers'].flatMap((m, r) => [
        at(m, 40, r + 2),
        at(`${r}1`, 180, r + 2),
        at(`${r}2`, 320, r + 2),
      ]),
    ];
    const markdown = layoutDocument([page(wrapped)]);
    expect(markdown).toContain('| Measure | (Head Start) | Age 4 |');
    expect(markdown).not.toContain('colspan');
  });

  it("leaves a chart's value scale and legend to the running text, and keeps a table whose years fall down the page", () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    // Two charts side by side: each scale's ticks, a legend beside them.
    const scale = ['450', '400', '350', '300', '250', '200', '150', '100'].flatMap((tick, r) => [
      at(tick, 40, r),
      at(tick, 300, r),
      ...(r === 2 ? [at('Diff CDS spread', 80, r), at('Diff CDS spread', 340, r)] : []),
      ...(r === 4 ? [at('1', 318, r)] : []), // a speck a scan read beside a tick
    ]);
    const chart = layoutDocument([page(scale)]);
    expect(chart).not.toContain('|');
    expect(chart).toContain('450');

    const rows = [
      ['Year', 'Exports', 'Imports'],
      ['2010', '412.5', '398.1'],
      ['2009', '377.0', '401.9'],
      ['2008', '350.2', '366.4'],
    ];
    const table = layoutDocument([page(rows.flatMap((cells, r) => cells.map((text, c) => at(text, 40 + c * 120, r))))]);
    expect(table).toContain('| Year | Exports | Imports |\n| --- | --- | --- |\n| 2010 | 412.5 | 398.1 |');
  });

  it('joins header labels that wrap over lines into one header row', () => {
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      at('Education', 40, 0),
      at('Percentage of', 180, 0),
      at('Exclusion', 320, 0),
      at('system', 40, 1),
      at('desired', 180, 1),
      at('rate', 320, 1),
      at('coverage', 180, 2),
      ...['Austria', 'Belgium', 'Canada'].flatMap((country, r) => [
        at(country, 40, r + 3),
        at(`${90 + r}`, 180, r + 3),
        at(`${r + 1}.5`, 320, r + 3),
      ]),
    ];
    expect(layoutDocument([page(runs)])).toContain(
      [
        '| Education system | Percentage of desired coverage | Exclusion rate |',
        '| --- | --- | --- |',
        '| Austria | 90 | 1.5 |',
        '| Belgium | 91 | 2.5 |',
        '| Canada | 92 | 3.5 |',
      ].join('\n'),
    );
  });

  it('keeps two columns apart under a header that runs across both, and adds none for a long figure', () => {
    // "Rate (95% CI)" runs over the rate and its interval; one total is wider than its column.
    const at = (text: string, x: number, r: number) => run(text, x, 300 + r * 14);
    const runs = [
      at('Group', 40, 0),
      at('Rate (95% CI)', 200, 0),
      at('Cases', 380, 0),
      ...[
        ['Female', '103.1', '(102.7-103.6)', '82'],
        ['Male', '176.5', '(175.7-177.2)', '54'],
        ['Other', '97.4', '(92.8-102.0)', '5'],
      ].flatMap(([name, rate, interval, cases], r) => [
        at(name, 40, r + 1),
        at(rate, 200, r + 1),
        at(interval, 260, r + 1),
        at(cases, 390, r + 1),
      ]),
      at('Total', 40, 4),
      at('135.0', 200, 4),
      at('(134.6-135.4)', 260, 4),
      at('1,250,141', 380, 4),
    ];
    const markdown = layoutDocument([page(runs)]);
    expect(markdown).toContain(
      [
        '<table>',
        '<tr><th>Group</th><th colspan="2">Rate (95% CI)</th><th>Cases</th></tr>',
        '<tr><td>Female</td><td>103.1</td><td>(102.7-103.6)</td><td>82</td></tr>',
        '<tr><td>Male</td><td>176.5</td><td>(175.7-177.2)</td><td>54</td></tr>',
        '<tr><td>Other</td><td>97.4</td><td>(92.8-102.0)</td><td>5</td></tr>',
        '<tr><td>Total</td><td>135.0</td><td>(134.6-135.4)</td><td>1,250,141</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });
});

describe('running heads on a single page', () => {
  it('drops a first line in small type that ends with a page number, keeps a title that does not', () => {
    const withHead = layoutDocument([
      page([
        run('Optimized Table Tokenization for Table Structure Recognition 9', 150, 100, 9),
        run('Body text of the page.', 40, 200),
      ]),
    ]);
    expect(withHead).not.toContain('Recognition 9');
    const withTitle = layoutDocument([
      page([run('Quarterly results', 150, 100, 10), run('Body text of the page.', 40, 200)]),
    ]);
    expect(withTitle).toContain('Quarterly results');
  });
});

describe('pages with one line of text', () => {
  it('keep that line even when it says "Page n" near the top of every page: it is the body, not furniture', () => {
    const pages = [1, 2, 3, 4].map((n) => page([run(`Page ${n} of the quarterly report.`, 72, 84, 12)], 612, 792));
    const markdown = layoutDocument(pages);
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Page ${n} of the quarterly report.`);
  });

  it('keep a line that ends with a number when it is all the page holds: a running head heads other text', () => {
    const markdown = layoutDocument([page([run('Short note 4417', 72, 84, 14)], 595, 842)]);
    expect(markdown).toContain('Short note 4417');
  });
});

describe('tables of contents', () => {
  it('reads entries with dot leaders as a two-column table', () => {
    const entries = ['Notices', 'Preface', 'Chapter 1. Securing data'];
    const markdown = layoutDocument([
      page(
        entries.flatMap((entry, i) => [
          run(`${entry} . . . . . . . . . .`, 40, 100 + i * 14),
          run(`${i + 1}`, 500, 100 + i * 14),
        ]),
      ),
    ]);
    expect(markdown).toContain('| Notices | 1 |\n| --- | --- |\n| Preface | 2 |\n| Chapter 1. Securing data | 3 |');
  });

  it('reads a dot leader written with its page number as one string the same way', () => {
    const entries = ['Notices', 'Preface', 'Chapter 1. Securing data'];
    const markdown = layoutDocument([
      page(
        entries.flatMap((entry, i) => [
          run(entry, 40, 100 + i * 14),
          // The leader starts right after the entry and runs to the page number at the right margin.
          {
            ...run(`. . . . . . . . . . . . . . . . . . . . . . . . ${i + 11}`, 42 + entry.length * 5, 100 + i * 14),
            width: 470 - entry.length * 5,
          },
        ]),
      ),
    ]);
    expect(markdown).toContain('| Notices | 11 |\n| --- | --- |\n| Preface | 12 |\n| Chapter 1. Securing data | 13 |');
  });
});

describe('headings', () => {
  const bold = (text: string, x: number, y: number, size = 10): TextRun => ({ ...run(text, x, y, size), bold: true });

  it('numbers heading levels over the sizes the document uses, and heads sections with short bold lines', () => {
    const markdown = layoutDocument([
      page([
        run('Annual review', 40, 60, 13), // 1.3× the body: the largest heading size in use
        run('The year in brief, told in plain body text.', 40, 100),
        bold('2.1 Sales by region', 40, 140),
        run('Sales rose in every region we serve.', 40, 160),
        bold('Bold words that end a sentence.', 40, 200),
        run('More body text follows here.', 40, 214),
      ]),
    ]);
    expect(markdown).toContain('# Annual review\n');
    expect(markdown).toContain('## 2.1 Sales by region\n');
    expect(markdown).not.toMatch(/#+ Bold words/);
  });

  it('reads text printed twice on the same spot (a faked bold face) once', () => {
    const markdown = layoutDocument([
      page([run('ENFORCED FOR ALL ACCESS', 40, 100), run('ENFORCED FOR ALL ACCESS', 40.4, 100.2)]),
    ]);
    expect(markdown).toBe('ENFORCED FOR ALL ACCESS\n');
  });
});
