import sharp from 'sharp';
import { samePlaceJoined } from './figure-images';
import { readDrawnPdf } from './testing/drawn-pdf';

/** An ellipse in `colour` on a transparent ground, as PNG with an alpha channel. */
const ellipse = (colour: string, palette = false) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><ellipse cx="100" cy="50" rx="90" ry="45" fill="${colour}"/></svg>`,
    ),
  )
    .png({ palette })
    .toBuffer();

/** A square in pure red, as a CMYK JPEG. */
const cmykSquare = () =>
  sharp({ create: { width: 150, height: 150, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .toColourspace('cmyk')
    .jpeg()
    .toBuffer();

/** The colour at a share of a PNG's width and height. */
async function colourAt(png: Buffer, fx: number, fy: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height * fy) * info.width + Math.floor(info.width * fx)) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

describe('pictures of a PDF page', () => {
  it('join places that overlap over most of the smaller one, in reading order', () => {
    const area = (box: [number, number, number, number], photo = false) => ({ box, photo });
    expect(
      samePlaceJoined([
        area([300, 300, 400, 400]),
        area([100, 100, 200, 200], true),
        area([101, 101, 199, 199]), // the first picture's soft mask
        area([150, 150, 260, 260]), // overlaps it less than half
      ]),
    ).toEqual([area([100, 100, 200, 200], true), area([150, 150, 260, 260]), area([300, 300, 400, 400])]);
  });

  describe('in a PDF', () => {
    it('come as the page shows them, each once: masked, indexed and CMYK pictures and a vector chart', async () => {
      const [masked, indexed, cmyk] = await Promise.all([ellipse('#1f77b4'), ellipse('#2ca02c', true), cmykSquare()]);
      const extraction = await readDrawnPdf('pictures.pdf', (doc) => {
        doc.addPage({ size: 'A4', margin: 0 });
        doc.font('Helvetica').fontSize(10);
        doc.text('A page of pictures, each with its caption below it.', 60, 40, { lineBreak: false });
        doc.image(masked, 60, 70, { width: 200, height: 100 });
        doc.text('Figure 1. A masked picture.', 60, 180, { lineBreak: false });
        doc.image(indexed, 60, 220, { width: 200, height: 100 });
        doc.text('Figure 2. An indexed picture.', 60, 330, { lineBreak: false });
        doc.image(cmyk, 60, 370, { width: 150, height: 150 });
        doc.text('Figure 3. A CMYK picture.', 60, 530, { lineBreak: false });
        // A line chart drawn with paths: a polyline through ten points, each marked with a dot.
        const points = Array.from({ length: 10 }, (_, i) => [70 + i * 20, 680 - ((i * 37) % 90)] as const);
        doc.moveTo(...points[0]);
        for (const point of points.slice(1)) doc.lineTo(...point);
        doc.lineWidth(2).strokeColor('#d62728').stroke();
        for (const [x, y] of points) doc.circle(x, y, 4).fillColor('#9467bd').fill();
        doc.fillColor('black').text('Figure 4. A chart drawn with paths.', 60, 700, { lineBreak: false });
      });
      const figures = extraction.document.blocks.filter((b) => b.type === 'figure');
      expect(figures.map((f) => f.type === 'figure' && f.alt)).toEqual([
        'Figure 1. A masked picture.',
        'Figure 2. An indexed picture.',
        'Figure 3. A CMYK picture.',
        'Figure 4. A chart drawn with paths.',
      ]);
      const images = new Map(extraction.images!.map((image) => [image.name, Buffer.from(image.data, 'base64')]));
      expect(images.size).toBe(4);
      const picture = (i: number) => {
        const figure = figures[i];
        return images.get((figure.type === 'figure' && figure.src) || '')!;
      };
      const near = (actual: number[], expected: number[]) =>
        expect(actual.every((value, k) => Math.abs(value - expected[k]) <= 40)).toBe(true);
      // Each picture in its own colour, on the page's white where its mask leaves it transparent.
      near(await colourAt(picture(0), 0.5, 0.5), [0x1f, 0x77, 0xb4]);
      near(await colourAt(picture(0), 0.02, 0.05), [255, 255, 255]);
      near(await colourAt(picture(1), 0.5, 0.5), [0x2c, 0xa0, 0x2c]);
      near(await colourAt(picture(1), 0.02, 0.05), [255, 255, 255]);
      near(await colourAt(picture(2), 0.5, 0.5), [255, 0, 0]);
      // The chart as drawn: mostly white, with the line's and the dots' colours in it.
      const { data, info } = await sharp(picture(3)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let coloured = 0;
      for (let at = 0; at < data.length; at += info.channels) if (data[at] - data[at + 1] > 60) coloured++;
      expect(coloured).toBeGreaterThan(100);
    });
  });
});
