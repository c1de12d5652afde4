import PDFDocument from 'pdfkit';

/** The bytes of a PDF drawn by `draw` with pdfkit (no page until `draw` adds one): how tests, fixtures and benchmarks make PDFs. */
export async function pdfBytes(draw: (doc: PDFKit.PDFDocument) => void | Promise<void>): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  await draw(doc);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
