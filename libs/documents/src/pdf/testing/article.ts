/**
 * A two-column article page drawn with pdfkit, for the rules of a PDF page's structure: a title
 * and authors across the page, a bold abstract in the left column, numbered section headings in
 * bold, an italic sub-heading on a line of its own, a bulleted list in bold and larger type, a
 * bold sentence that goes on into the body, a bold run-in heading opening a paragraph, a formula
 * set large, a function's name heading its signature, and columns that end at different heights.
 */

/** Where the columns stand, in points from the left: [left edge, right edge] of each. */
export const ARTICLE_COLUMNS: [number, number][] = [
  [54, 297],
  [315, 558],
];

const WIDTH = 243;

/** `count` sentences of body text, numbered `seed.1`, `seed.2`… so each paragraph can be found. */
export const sentences = (count: number, seed: number): string =>
  Array.from(
    { length: count },
    (_, i) => `Sentence ${seed}.${i + 1} tells how the river buoys measured the water level every hour.`,
  ).join(' ');

export function drawArticle(doc: PDFKit.PDFDocument): void {
  doc.addPage({ size: 'LETTER', margin: 36 });
  const [[left], [right]] = ARTICLE_COLUMNS;
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text('Sensing Rivers with Cheap Buoys', left, 60, { width: 504, align: 'center' });
  doc.font('Helvetica').fontSize(10).text('A. Author and B. Author', left, 86, { width: 504, align: 'center' });

  let y = 120;
  const body = (text: string, x: number, gap = 8) => {
    doc.font('Times-Roman').fontSize(10).text(text, x, y, { width: WIDTH, align: 'justify' });
    y = doc.y + gap;
  };
  doc
    .font('Times-Bold')
    .fontSize(10)
    .text(`Abstract. ${sentences(3, 0)}`, left, y, { width: WIDTH });
  y = doc.y + 12;
  doc.font('Times-Bold').fontSize(11).text('1 Introduction', left, y, { width: WIDTH });
  y = doc.y + 4;
  body(sentences(3, 1), left);
  doc.font('Times-Italic').fontSize(10).text('Field sites', left, y, { width: WIDTH });
  y = doc.y + 2;
  body(sentences(2, 2), left);
  doc.font('Times-Bold').fontSize(10).text('In the following tables the levels', left, y, { width: WIDTH });
  y = doc.y;
  body('are given for each site and each month of the season.', left);
  doc.font('Times-Bold').fontSize(12);
  for (const item of ['the water level', 'the water temperature', 'the battery charge']) {
    doc.text('•', left + 6, y);
    doc.text(item, left + 18, y, { width: WIDTH - 18 });
    y = doc.y + 2;
  }
  y += 6;
  body(sentences(4, 3), left);

  y = 120;
  doc.font('Times-Bold').fontSize(11).text('2 Method', right, y, { width: WIDTH });
  y = doc.y + 4;
  body(sentences(3, 4), right);
  body(sentences(2, 5), right);
  // A run-in heading: bold words opening a paragraph's first line.
  doc.font('Times-Bold').fontSize(10).text('Pond depth. ', right, y, { width: WIDTH, continued: true });
  doc.font('Times-Roman').text(sentences(2, 6));
  y = doc.y + 10;
  // A formula set large, and a function's name heading its signature (which opens in lower case).
  doc
    .font('Times-Roman')
    .fontSize(14)
    .text('x = a + b', right + 80, y);
  y = doc.y + 10;
  doc.font('Helvetica-Bold').fontSize(12).text('parse tree', right, y);
  y = doc.y + 2;
  body('int parse_tree (const char * file, node * definitions)', right);
}

/**
 * A two-column page broken by a chart across both columns: two columns above it, its caption,
 * two columns of different lengths under it, and a footnote across the foot of the page.
 */
export function drawBandedPage(doc: PDFKit.PDFDocument): void {
  doc.addPage({ size: 'LETTER', margin: 36 });
  const [[left], [right]] = ARTICLE_COLUMNS;
  const column = (text: string, x: number, y: number) =>
    doc.font('Times-Roman').fontSize(10).text(text, x, y, { width: WIDTH, align: 'justify' });
  column(sentences(5, 1), left, 60);
  column(sentences(5, 2), right, 60);
  // A line chart drawn with paths across both columns.
  const points = Array.from({ length: 20 }, (_, i) => [70 + i * 24, 330 - ((i * 37) % 80)] as const);
  doc.save().moveTo(...points[0]);
  for (const point of points.slice(1)) doc.lineTo(...point);
  doc.lineWidth(2).strokeColor('#d62728').stroke();
  for (const [x, y] of points) doc.circle(x, y, 4).fillColor('#9467bd').fill();
  doc.restore().fillColor('black');
  doc
    .fontSize(9)
    .text('Figure 1. Water level over the season, at every buoy.', left, 345, { width: 504, align: 'center' });
  column(sentences(9, 3), left, 370);
  column(sentences(7, 4), right, 370);
}
