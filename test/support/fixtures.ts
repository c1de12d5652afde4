import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/** A PDF with one page per entry, each page holding that text. */
export function makePdf(pages: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, compress: true });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const text of pages) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(14).text(text);
    }
    doc.end();
  });
}

/** A white PNG with one line of black text, large enough to OCR reliably. */
export function makeTextPng(text: string): Promise<Buffer> {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="300">
    <rect width="100%" height="100%" fill="white"/>
    <text x="40" y="170" font-family="DejaVu Sans, sans-serif" font-size="64" fill="black">${escaped}</text></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: 'white' }).png().toBuffer();
}
