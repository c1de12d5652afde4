import { isHancomExport, readHancomExport } from './hancom';

/** A layout line at (left, top) in mm. */
const line = (left: number, top: number, text: string): string =>
  `<div class="hls ps0" style="line-height:2.79mm;white-space:nowrap;left:${left}mm;top:${top}mm;height:3.53mm;width:150mm;">` +
  `<span class="hrt cs1">${text}</span></div>`;

/** A cell box with its lines. */
const cell = (left: number, top: number, width: number, height: number, ...lines: string[]): string =>
  `<div class="hce" style="left:${left}mm;top:${top}mm;width:${width}mm;height:${height}mm;">` +
  `<div class="hcD" style="left:0.50mm;top:0.50mm;"><div class="hcI">${lines.map((t, i) => line(0, i * 5, t)).join('')}</div></div></div>`;

const page = (...content: string[]): string =>
  `<div class="hpa" style="width:210mm;height:297mm;">${content.join('')}</div>`;

const body = (...lines: string[]): string =>
  `<div class="hcD" style="left:30mm;top:35mm;"><div class="hcI">${lines.join('')}</div></div>`;

const document = (...pages: string[]): string =>
  `<!DOCTYPE html><html><head><title>t</title><style>.hls{position:absolute}</style></head><body>${pages.join('')}</body></html>`;

const grid = (html: string) =>
  readHancomExport(html).tables.map((t) => t.rows.map((r) => r.map((c) => [c.text, c.rowspan, c.colspan])));

describe('isHancomExport', () => {
  it('knows the positioned export by its page and line classes', () => {
    expect(isHancomExport(document(page(body(line(0, 0, 'x')))))).toBe(true);
    expect(isHancomExport('<html><body><table><tr><td>x</td></tr></table></body></html>')).toBe(false);
    expect(isHancomExport('<div class="hpa">no lines</div>')).toBe(false);
  });
});

describe('readHancomExport', () => {
  it('reads lines top to bottom, then left to right, whatever their source order', () => {
    const html = document(
      page(body(line(0, 20, 'third'), line(0, 0, 'first'), line(80, 10.4, 'right'), line(0, 10, 'left'))),
    );
    expect(readHancomExport(html).text).toBe('first\nleft\nright\nthird');
  });

  it('adds up the offsets of positioned ancestors and reads pages in order', () => {
    const html = document(
      page(
        '<div class="hcD" style="left:30mm;top:100mm;"><div class="hcI">' + line(0, 0, 'lower box') + '</div></div>',
        '<div class="hcD" style="left:30mm;top:35mm;"><div class="hcI" style="top:5mm;">' +
          line(0, 0, 'upper box') +
          '</div></div>',
      ),
      page(body(line(0, 0, 'page two'))),
    );
    expect(readHancomExport(html).text).toBe('upper box\nlower box\npage two');
  });

  it('joins a line’s runs, decodes entities and drops the source’s indentation and empty lines', () => {
    const html = document(
      page(
        body(
          '<div class="hls" style="left:0mm;top:0mm;">\n  <span class="hrt">한글&nbsp;</span><span class="hrt">2005</span>\n  <span class="hrt"> 예제\n      파일</span>\n</div>',
          line(0, 5, ''),
          '<div class="hls" style="left:0mm;top:10mm;"><span>표&nbsp;</span><div class="haN" style="left:0mm;top:0mm;"><span>3</span></div><span>&nbsp;캡션</span></div>',
        ),
      ),
    );
    expect(readHancomExport(html).text).toBe('한글 2005 예제 파일\n표 3 캡션');
  });

  it('leaves out page numbers and pictures', () => {
    const html = document(
      page(
        '<div class="hpN" style="left:104mm;top:287mm;"><span class="hrt">1</span></div>',
        body(line(0, 0, 'text')),
        '<div class="hsR" style="top:50mm;left:69mm;background-image:url(\'a.png\');"></div>',
      ),
    );
    expect(readHancomExport(html).text).toBe('text');
  });

  it('reads a table where it is drawn, cell by cell in rows, with its caption where it is drawn', () => {
    // Hancom writes the floating table (htG) after the page's text; it is drawn between them.
    const html = document(
      page(
        body(line(0, 0, 'before'), line(0, 100, 'after')),
        '<div class="htG" style="left:35mm;top:60mm;width:146mm;height:27mm;">' +
          '<div class="htb" style="left:1mm;width:142mm;top:2mm;height:9mm;"><svg class="hs"><defs><pattern id="g"></pattern></defs></svg>' +
          cell(71, 0, 71, 4.5, 'B0') +
          cell(0, 0, 71, 4.5, 'A0') +
          cell(0, 4.5, 71, 4.5, 'A1', 'A1b') +
          cell(71, 4.5, 71, 4.5, 'B1') +
          '</div>' +
          '<div class="hcD" style="left:1mm;top:14mm;"><div class="hcI">' +
          line(0, 0, 'Table 1 caption') +
          '</div></div>' +
          '</div>',
      ),
    );
    expect(readHancomExport(html).text).toBe('before\nA0\nB0\nA1\nA1b\nB1\nTable 1 caption\nafter');
    expect(grid(html)).toEqual([
      [
        [
          ['A0', 1, 1],
          ['B0', 1, 1],
        ],
        [
          ['A1\nA1b', 1, 1],
          ['B1', 1, 1],
        ],
      ],
    ]);
  });

  it('takes the grid from the cells’ edges: spans, edges within a tolerance, uncovered slots', () => {
    const table =
      '<div class="hls" style="left:0mm;top:10mm;"><div class="htb" style="left:0mm;top:0mm;display:inline-block;position:relative;">' +
      cell(0, 0, 20, 8, 'head') +
      cell(20, 0, 150, 8, 'wide') +
      cell(0, 8, 20, 16, 'tall') +
      cell(20.02, 8, 65, 8, 'b') +
      cell(85, 8, 20, 8, 'c') +
      cell(105, 8, 65, 8, 'd') +
      cell(20, 16, 65, 8, 'e') +
      '</div></div>';
    expect(grid(document(page(body(table))))).toEqual([
      [
        [
          ['head', 1, 1],
          ['wide', 1, 3],
        ],
        [
          ['tall', 2, 1],
          ['b', 1, 1],
          ['c', 1, 1],
          ['d', 1, 1],
        ],
        [
          ['e', 1, 1],
          ['', 1, 1],
          ['', 1, 1],
        ],
      ],
    ]);
  });

  it('keeps a table nested in a cell as a table of its own, read in place', () => {
    const inner =
      '<div class="hls" style="left:0mm;top:6mm;"><div class="htb" style="left:0mm;top:0mm;">' +
      cell(0, 0, 10, 5, 'x') +
      cell(10, 0, 10, 5, 'y') +
      '</div></div>';
    const outer =
      '<div class="hls" style="left:0mm;top:0mm;"><div class="htb" style="left:0mm;top:0mm;">' +
      '<div class="hce" style="left:0mm;top:0mm;width:50mm;height:20mm;"><div class="hcD" style="left:0mm;top:0mm;"><div class="hcI">' +
      line(0, 0, 'outer') +
      inner +
      line(0, 12, 'below') +
      '</div></div></div>' +
      cell(50, 0, 50, 20, 'next') +
      '</div></div>';
    const html = document(page(body(outer)));
    expect(readHancomExport(html).text).toBe('outer\nx\ny\nbelow\nnext');
    expect(grid(html)).toEqual([
      [
        [
          ['outer\nbelow', 1, 1],
          ['next', 1, 1],
        ],
      ],
      [
        [
          ['x', 1, 1],
          ['y', 1, 1],
        ],
      ],
    ]);
  });
});
