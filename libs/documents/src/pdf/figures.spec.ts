import { drawnFigures, figureRegions, withFigureText } from './figures';
import { buildLines } from './layout';
import type { Shape } from './rules';
import { run } from './testing/text-runs';

/** A line chart's strokes: ten short diagonal segments between (100, 100) and (300, 200). */
const chart: Shape[] = Array.from({ length: 10 }, (_, i) => ({
  x0: 100 + i * 20,
  y0: 150 - (i % 3) * 10,
  x1: 122 + i * 20,
  y1: 200 - (i % 3) * 10,
}));

describe('figureRegions', () => {
  it('joins shapes that touch into one region and leaves out a few shapes alone', () => {
    const logo: Shape[] = [{ x0: 500, y0: 20, x1: 540, y1: 60 }];
    expect(figureRegions([...chart, ...logo])).toEqual([{ x0: 100, y0: 130, x1: 302, y1: 200 }]);
    expect(figureRegions(chart.slice(0, 3))).toEqual([]);
  });
});

describe('withFigureText', () => {
  it('takes a chart’s labels out of the text as one comment, and keeps its caption and the text around it', () => {
    const lines = buildLines([
      run('Sales grew in every quarter of the year, as the chart below shows.', 60, 110),
      run('Q1', 100, 215),
      run('Q4', 290, 215),
      run('Revenue', 86, 165),
      run('Figure 2: Revenue by quarter', 120, 240),
      run('The next paragraph goes on with running text after the figure.', 60, 270),
    ]);
    const out = withFigureText(lines, figureRegions(chart));
    expect(out.map((l) => l.block ?? l.text)).toEqual([
      'Sales grew in every quarter of the year, as the chart below shows.',
      '<!-- figure: Revenue · Q1 Q4 -->',
      'Figure 2: Revenue by quarter',
      'The next paragraph goes on with running text after the figure.',
    ]);
  });

  it('leaves text alone in a region that holds mostly running text (a note framed with rounded corners)', () => {
    const lines = buildLines([
      run('A framed note written out in full sentences for the reader,', 110, 150),
      run('which goes on over a second line of the same size.', 110, 162),
      run('Outside', 60, 400),
      run('Far away text that is the rest of the page.', 60, 420),
    ]);
    expect(withFigureText(lines, figureRegions(chart))).toBe(lines);
  });
});

describe('drawnFigures', () => {
  const page = { width: 400, height: 500 };
  const labels = () =>
    buildLines([
      run('Q1', 100, 215),
      run('Q4', 290, 215),
      run('Revenue', 88, 165),
      run('A paragraph of running text far below the chart, as pages have.', 30, 400),
      run('It goes on over a second line, and a third, as paragraphs do.', 30, 412),
      run('The third line ends the paragraph under the chart at last.', 30, 424),
    ]);
  const axis: Shape = { x0: 95, y0: 202, x1: 330, y1: 202 };

  it('reaches as far as the rules the drawing touches and the text that labels it', () => {
    const [figure] = drawnFigures(labels(), figureRegions(chart), [axis], page.width, page.height);
    expect(figure.x0).toBe(88); // the axis title, left of the strokes
    expect(figure.x1).toBe(330); // the axis, right of them
    expect(figure.y0).toBe(130);
    expect(figure.y1).toBeGreaterThanOrEqual(215); // the tick labels under the axis
  });

  it('leaves out drawings too small to be figures, ink from one side of the page to the other, and pages of ink', () => {
    const small = chart.map((s) => ({ x0: s.x0 / 4, y0: s.y0 / 4, x1: s.x1 / 4, y1: s.y1 / 4 }));
    expect(drawnFigures([], figureRegions(small), [], page.width, page.height)).toEqual([]);
    const across: Shape[] = chart.map((s, i) => ({ ...s, x0: i === 0 ? 5 : s.x0, x1: i === 9 ? 395 : s.x1 }));
    expect(drawnFigures([], figureRegions(across), [], page.width, page.height)).toEqual([]);
    const inked: Shape[] = Array.from({ length: 8 }, (_, i) => ({ x0: 40, y0: i * 60, x1: 360, y1: i * 60 + 64 }));
    expect(drawnFigures([], figureRegions(inked), [], page.width, page.height)).toEqual([]);
    expect(drawnFigures([], figureRegions(chart), [], page.width, page.height)).toHaveLength(1);
  });

  it('is none where the drawing lies under more text left in the flow than it labels', () => {
    const over = buildLines([
      run('Q1', 100, 215),
      run('A line of the running text that crosses the drawing', 60, 170),
      ...Array.from({ length: 6 }, (_, i) =>
        run(`Paragraph line ${i} of the text further down the page.`, 30, 300 + i * 12),
      ),
    ]);
    expect(drawnFigures(over, figureRegions(chart), [], page.width, page.height)).toEqual([]);
  });
});
