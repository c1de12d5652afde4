import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { hwpCompoundFile } from '../../libs/documents/src/hwp/testing/hwp-builder';
import { pdfBytes } from '../../libs/documents/src/pdf/testing/pdf-bytes';

/** A PDF with one page per entry, each page holding that text. */
export function makePdf(pages: string[]): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (const text of pages) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(14).text(text);
    }
  });
}

/**
 * A PDF mixing pages with a text layer and scanned pages: a `{ scan }` page holds only a
 * picture of its text (no text layer), as a scanner would produce it.
 */
export async function makeMixedPdf(pages: ({ text: string } | { scan: string })[]): Promise<Buffer> {
  const scans = await Promise.all(pages.map((p) => ('scan' in p ? makeTextPng(p.scan) : Promise.resolve(undefined))));
  return pdfBytes((doc) => {
    pages.forEach((page, i) => {
      doc.addPage({ size: 'A4', margin: 72 });
      const scan = scans[i];
      if (scan) doc.image(scan, 40, 100, { width: 515 });
      else if ('text' in page) doc.fontSize(14).text(page.text);
    });
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

/** A picture without text, as a PNG: discs of several greys, as a photograph is shades without letters. */
export function makePicturePng(): Promise<Buffer> {
  const discs = Array.from({ length: 25 }, (_, i) => {
    const grey = (i * 40) % 200;
    return `<circle cx="${(i * 137) % 1000}" cy="${(i * 211) % 700}" r="${30 + ((i * 17) % 60)}" fill="rgb(${grey},${grey},${grey})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect width="100%" height="100%" fill="white"/>${discs}</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: 'white' }).png().toBuffer();
}

/** A strip 40,000 pixels wide with a rule across it: wider than Tesseract reads (32,767), so the engine fails on it. */
export function makeBannerPng(): Promise<Buffer> {
  const width = 40_000;
  const pixels = Buffer.alloc(width * 60, 255);
  pixels.fill(0, 30 * width, 31 * width);
  return sharp(pixels, { raw: { width, height: 60, channels: 1 } })
    .png()
    .toBuffer();
}

/** A dense page of prose, 2,480 by 3,508 pixels (A4 at 300 dpi): seconds of work for any engine. */
export function makeDensePng(): Promise<Buffer> {
  const words = 'the quick brown fox jumps over a lazy dog while seven wizards box and quartz glyphs vex'.split(' ');
  const rows = Array.from({ length: 70 }, (_, r) => {
    const line = Array.from({ length: 14 }, (_, w) => words[(r * 7 + w * 3) % words.length]).join(' ');
    return `<text x="150" y="${200 + r * 45}" font-family="DejaVu Sans, sans-serif" font-size="34">${line}</text>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: 'white' }).png().toBuffer();
}

// ---- office ---------------------------------------------------------------------------

/** A DOCX with the given paragraphs; `pageBreaks` inserts a page break before each of those indexes. */
export async function makeDocx(paragraphs: string[], pageBreaks: number[] = []): Promise<Buffer> {
  const { Document, Packer, Paragraph, TextRun, PageBreak } = await import('docx');
  const children = paragraphs.map(
    (text, i) => new Paragraph({ children: [...(pageBreaks.includes(i) ? [new PageBreak()] : []), new TextRun(text)] }),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A PPTX with one slide per text. pptxgenjs loads modules dynamically, which Jest's sandbox cannot, so it runs in a child. */
export async function makePptx(slides: string[]): Promise<Buffer> {
  const { execFileSync } = await import('node:child_process');
  const script = `
    const PptxGenJS = require('pptxgenjs');
    const pptx = new PptxGenJS();
    for (const text of JSON.parse(process.argv[1])) pptx.addSlide().addText(text, { x: 1, y: 1, w: 8, h: 1 });
    pptx.write({ outputType: 'base64' }).then((b64) => process.stdout.write(b64));`;
  const b64 = execFileSync(process.execPath, ['-e', script, JSON.stringify(slides)], {
    cwd: __dirname,
    maxBuffer: 64 * 1024 * 1024,
  });
  return Buffer.from(b64.toString(), 'base64');
}

/** An XLSX with one sheet per entry (an empty array makes an empty sheet). */
export async function makeXlsx(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The same workbook declared macro-enabled (XLSM). */
export async function makeXlsm(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const xlsx = await makeXlsx(sheets);
  return rezip(xlsx, (name, data) =>
    name === '[Content_Types].xml'
      ? Buffer.from(
          data
            .toString('utf8')
            .replace(
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
              'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
            ),
        )
      : data,
  );
}

async function rezip(zip: Buffer, transform: (name: string, data: Buffer) => Buffer): Promise<Buffer> {
  const { makeZip } = await import('./archives');
  const { withZip } = await import('../../libs/documents/src/zip/zip-reader');
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const folder = await mkdtemp(join(tmpdir(), 'docconv-rezip-'));
  try {
    const path = join(folder, 'in.zip');
    await writeFile(path, zip);
    const entries = await withZip(path, async (reader) => {
      const out: { name: string; data: Buffer }[] = [];
      for (const entry of reader.entries)
        out.push({ name: entry.name, data: await reader.read(entry, 64 * 1024 * 1024) });
      return out;
    });
    return makeZip(entries.map((e) => ({ name: e.name, data: transform(e.name, e.data) })));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// ---- HWP and HWPX -----------------------------------------------------------------------

/** An HWP 5 file whose saved layout has one page per entry of `pages` (each a list of paragraphs). */
export async function makeHwp(pages: string[][]): Promise<Buffer> {
  const { deflateRawSync } = await import('node:zlib');
  const record = (tag: number, level: number, data: Buffer) => {
    const header = Buffer.alloc(4);
    header.writeUInt32LE((tag | (level << 10) | (data.length << 20)) >>> 0);
    return Buffer.concat([header, data]);
  };
  const records: Buffer[] = [];
  for (const paragraphs of pages) {
    paragraphs.forEach((text, i) => {
      const chars = Buffer.from(`${text}\r`, 'utf16le');
      const header = Buffer.alloc(22);
      header.writeUInt32LE(text.length + 1, 0);
      records.push(record(0x42, 0, header), record(0x43, 1, chars));
      const seg = Buffer.alloc(36);
      seg.writeInt32LE(i * 1600, 4); // vertical position: back to the top on each new page
      seg.writeInt32LE(1000, 8);
      records.push(record(0x45, 1, seg));
    });
  }
  return compressedHwp(deflateRawSync(Buffer.concat(records)));
}

/** An HWP 5 compound file, marked compressed, whose one body section is `section` (raw-deflated records). */
export async function compressedHwp(section: Buffer): Promise<Buffer> {
  const { deflateRawSync } = await import('node:zlib');
  return hwpCompoundFile({ '/DocInfo': deflateRawSync(Buffer.alloc(0)), '/BodyText/Section0': section });
}

/** An HWPX file with one saved-layout page per entry of `pages`. */
export async function makeHwpx(pages: string[][]): Promise<Buffer> {
  const { makeZip } = await import('./archives');
  const paragraphs = pages
    .flatMap((paragraphs) =>
      paragraphs.map(
        (text, i) =>
          `<hp:p id="${i}" paraPrIDRef="0" styleIDRef="0"><hp:run charPrIDRef="0"><hp:t>${text}</hp:t></hp:run>` +
          `<hp:linesegarray><hp:lineseg textpos="0" vertpos="${i * 1600}" vertsize="1000" textheight="1000" baseline="850" spacing="600" horzpos="0" horzsize="42520" flags="393216"/></hp:linesegarray></hp:p>`,
      ),
    )
    .join('');
  const section =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph">' +
    paragraphs +
    '</hs:sec>';
  return makeZip([
    { name: 'mimetype', data: 'application/hwp+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"/>',
    },
    { name: 'Contents/section0.xml', data: section },
  ]);
}

// ---- images -------------------------------------------------------------------------------

async function greyPixels(text: string): Promise<{ data: Buffer; width: number; height: number }> {
  const png = await makeTextPng(text);
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function makeImage(format: 'png' | 'jpeg' | 'webp' | 'gif', text: string): Promise<Buffer> {
  return sharp(await makeTextPng(text))
    .toFormat(format)
    .toBuffer();
}

/** An uncompressed greyscale TIFF with one page (IFD) per text. */
export async function makeTiff(pages: string[]): Promise<Buffer> {
  const images = await Promise.all(pages.map(greyPixels));
  return greyTiff(
    images.map((image) => ({ width: image.width, height: image.height, strip: image.data, deflated: false })),
  );
}

/**
 * A deflated greyscale TIFF with one frame per text whose frame `unreadable` (from 0) holds
 * bytes that claim to be deflated and are not: its header reads, its pixels do not.
 */
export async function makeTiffWithUnreadableFrame(texts: string[], unreadable: number): Promise<Buffer> {
  const images = await Promise.all(texts.map(greyPixels));
  return greyTiff(
    images.map((image, i) => ({
      width: image.width,
      height: image.height,
      strip: i === unreadable ? Buffer.from('these bytes are not zlib data') : deflateSync(image.data),
      deflated: true,
    })),
  );
}

/** One frame of `greyTiff`: its size and its pixels as one strip, stored as they are or zlib-deflated. */
export interface TiffFrame {
  width: number;
  height: number;
  strip: Buffer;
  deflated: boolean;
}

/** An 8-bit greyscale TIFF (little-endian), one page (IFD) per frame, each frame one strip. */
export function greyTiff(frames: TiffFrame[]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  parts.push(header);
  let offset = 8;
  frames.forEach((frame, index) => {
    const tags: [number, number, number][] = [
      [256, 4, frame.width],
      [257, 4, frame.height],
      [258, 3, 8],
      [259, 3, frame.deflated ? 8 : 1],
      [262, 3, 1],
      [273, 4, 0], // strip offset, filled below
      [277, 3, 1],
      [278, 4, frame.height],
      [279, 4, frame.strip.length],
    ];
    const ifdSize = 2 + tags.length * 12 + 4;
    const dataOffset = offset + ifdSize;
    const next = index === frames.length - 1 ? 0 : dataOffset + frame.strip.length;
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(tags.length, 0);
    tags.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(tag === 273 ? dataOffset : value, at + 8);
    });
    ifd.writeUInt32LE(next, ifdSize - 4);
    parts.push(ifd, frame.strip);
    offset = dataOffset + frame.strip.length;
  });
  return Buffer.concat(parts);
}

/** A 24-bit BMP (sharp reads BMP but does not write it). */
export async function makeBmp(text: string): Promise<Buffer> {
  const { data, width, height } = await greyPixels(text);
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const pixels = Buffer.alloc(rowSize * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = data[(height - 1 - y) * width + x];
      pixels.fill(v, y * rowSize + x * 3, y * rowSize + x * 3 + 3);
    }
  }
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

// ---- audio and video (Debian's ffmpeg) -------------------------------------------------------

/** `seconds` of a tone (and, for video, a test picture) encoded as `extension`. */
export async function makeMedia(extension: string, seconds: number, video = false): Promise<Buffer> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const folder = mkdtempSync(join(tmpdir(), 'docconv-media-'));
  try {
    const out = join(folder, `out.${extension}`);
    const inputs = video
      ? [
          '-f',
          'lavfi',
          '-i',
          `testsrc=duration=${seconds}:size=160x120:rate=10`,
          '-f',
          'lavfi',
          '-i',
          `sine=duration=${seconds}`,
          '-shortest',
        ]
      : ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
    const codec = extension === 'webm' && !video ? ['-c:a', 'libopus'] : [];
    execFileSync('ffmpeg', ['-loglevel', 'error', ...inputs, ...codec, '-y', out]);
    return readFileSync(out);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
