import sharp from 'sharp';
import type { Box, GreyImage, OcrEngine, OcrLine, OcrRequest, OcrResult } from './engine';
import { crop, koreanRegions, needsKoreanReading } from './korean-regions';
import { detectionInput, DETECTION_LONG_SIDE, RapidOcrEngine } from './rapidocr';
import { lineFromText } from './reading-order';

interface Text {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  size: number;
}

/** Text drawn in DejaVu Sans, black on white, as an 8-bit greyscale image. */
async function render(width: number, height: number, texts: Text[]): Promise<GreyImage> {
  const body = texts
    .map((t) => `<text x="${t.x}" y="${t.y}" font-family="DejaVu Sans" font-size="${t.size}">${t.text}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** The box around the dark pixels of an image. */
function inkBox(image: GreyImage): Box {
  let [x0, y0, x1, y1] = [image.width, image.height, -1, -1];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x] >= 128) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

function request(image: GreyImage, languages = ['eng']): OcrRequest {
  return { image, model: 'premium', languages };
}

/** The read lines' texts, lower-cased, one string. */
function readText(result: OcrResult): string {
  return result.lines.map((l) => l.text.toLowerCase()).join('\n');
}

/** Stands in for the Korean engine: answers each region with one line covering the whole region. */
class RegionEngine implements OcrEngine {
  readonly name = 'tesseract';
  readonly requests: OcrRequest[] = [];

  async recognize(request: OcrRequest): Promise<OcrResult> {
    this.requests.push(request);
    const { width, height } = request.image;
    const line = lineFromText('한국어 문장', { x: 0, y: 0, width, height }, 88);
    return { engine: 'tesseract', width, height, lines: [line], confidence: 88, notes: [], calls: 1 };
  }

  async close(): Promise<void> {}
}

const line = (text: string, box: Box, confidence = 95): OcrLine => lineFromText(text, box, confidence);

describe('RapidOcrEngine', () => {
  let engine: RapidOcrEngine;
  beforeAll(async () => {
    engine = await RapidOcrEngine.create();
  });
  afterAll(() => engine.close());

  it('reads rendered text', async () => {
    const image = await render(1200, 400, [
      { text: 'Invoice number 4711', x: 60, y: 140, size: 56 },
      { text: 'Payment is due within thirty days', x: 60, y: 280, size: 48 },
    ]);
    const result = await engine.recognize(request(image));
    expect(result).toMatchObject({ engine: 'rapidocr', width: 1200, height: 400, notes: [] });
    const text = readText(result);
    for (const word of ['invoice', 'number', '4711', 'payment', 'due', 'thirty', 'days']) expect(text).toContain(word);
    expect(text.indexOf('invoice')).toBeLessThan(text.indexOf('payment'));
    expect(result.confidence).toBeGreaterThan(80);
    expect(result.lines.flatMap((l) => l.words).length).toBeGreaterThanOrEqual(8);
  });

  it('reads a two-column page column by column, under its title', async () => {
    const left = ['Rivers carry water', 'down from the hills', 'into the open sea'];
    const right = ['Trains leave early', 'from the north station', 'every single morning'];
    const image = await render(1600, 700, [
      { text: 'Notes on travel across the country', x: 300, y: 90, size: 48 },
      ...left.map((text, i) => ({ text, x: 60, y: 220 + i * 80, size: 40 })),
      ...right.map((text, i) => ({ text, x: 860, y: 220 + i * 80, size: 40 })),
    ]);
    const text = readText(await engine.recognize(request(image)));
    const positions = ['notes', 'rivers', 'hills', 'open sea', 'trains', 'north', 'morning'].map((w) =>
      text.indexOf(w),
    );
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('gives boxes in the pixels of the original image when it reads a scaled-down copy', async () => {
    const word = { text: 'Harbour', x: 3100, y: 700, size: 90 };
    const image = await render(4600, 1000, [{ text: 'Lighthouse', x: 200, y: 300, size: 90 }, word]);
    const drawn = inkBox(await render(4600, 1000, [word]));
    const result = await engine.recognize(request(image));
    const harbour = result.lines.find((l) => l.text.toLowerCase().includes('harbour'));
    expect(harbour).toBeDefined();
    const box = harbour!.box;
    // The detector's boxes stand a few pixels off the ink; scaling by 2 doubles that.
    expect(Math.abs(box.x - drawn.x)).toBeLessThan(25);
    expect(Math.abs(box.y - drawn.y)).toBeLessThan(25);
    expect(Math.abs(box.x + box.width - (drawn.x + drawn.width))).toBeLessThan(25);
    expect(Math.abs(box.y + box.height - (drawn.y + drawn.height))).toBeLessThan(25);
  });

  it('reads nothing on an empty image', async () => {
    const result = await engine.recognize(request({ width: 0, height: 0, data: Buffer.alloc(0) }));
    expect(result).toMatchObject({ lines: [], confidence: 0, notes: [] });
  });

  it('refuses to read once closed', async () => {
    const closed = await RapidOcrEngine.create();
    await closed.close();
    const image = await render(300, 100, [{ text: 'closed', x: 20, y: 60, size: 40 }]);
    await expect(closed.recognize(request(image))).rejects.toThrow('closed');
  });

  it('loads on this machine', async () => {
    await expect(RapidOcrEngine.available()).resolves.toBe(true);
  });
});

describe('RapidOcrEngine with a Korean engine', () => {
  // Georgian stands in for Hangul: no font for Hangul is installed here, and the models know
  // neither script, so PaddleOCR fails on both the same way.
  const english = { text: 'Quarterly report 2024', x: 60, y: 110, size: 48 };
  const unknownScript = { text: 'ქართული ენა და დამწერლობა', x: 60, y: 260, size: 48 };
  let page: GreyImage;
  let korean: RegionEngine;
  let engine: RapidOcrEngine;
  beforeAll(async () => {
    page = await render(1200, 340, [english, unknownScript]);
    korean = new RegionEngine();
    engine = await RapidOcrEngine.create({ korean });
  });
  afterAll(() => engine.close());
  beforeEach(() => korean.requests.splice(0));

  it('reads the lines its models cannot with the Korean engine when Korean is asked for', async () => {
    const result = await engine.recognize(request(page, ['eng', 'kor']));
    expect(korean.requests).toHaveLength(1);
    expect(korean.requests[0].languages).toEqual(['eng', 'kor']);
    expect(result.notes).toEqual(['Korean text read by tesseract (kor)']);

    const text = readText(result);
    expect(text).toContain('quarterly report');
    const hangul = result.lines.find((l) => l.text === '한국어 문장');
    expect(hangul).toBeDefined();
    // The region engine's line covers its whole crop: in page pixels it holds the unknown
    // script's ink and stays clear of the English line's.
    const region = hangul!.box;
    const script = inkBox(await render(1200, 340, [unknownScript]));
    const latin = inkBox(await render(1200, 340, [english]));
    expect(region.x).toBeLessThanOrEqual(script.x);
    expect(region.y).toBeLessThanOrEqual(script.y);
    expect(region.x + region.width).toBeGreaterThanOrEqual(script.x + script.width);
    expect(region.y + region.height).toBeGreaterThanOrEqual(script.y + script.height);
    expect(region.y).toBeGreaterThan(latin.y + latin.height);
    expect(korean.requests[0].image).toMatchObject({ width: region.width, height: region.height });
    expect(text.indexOf('quarterly')).toBeLessThan(text.indexOf('한국어'));
  });

  it('leaves the Korean engine alone when Korean is not asked for', async () => {
    const result = await engine.recognize(request(page, ['eng']));
    expect(korean.requests).toHaveLength(0);
    expect(result.notes).toEqual([]);
    expect(readText(result)).toContain('quarterly report');
  });
});

describe('detectionInput', () => {
  it(`scales a page down to a long side of ${DETECTION_LONG_SIDE} px and pads it to multiples of 32`, async () => {
    const image = { width: 4600, height: 1000, data: Buffer.alloc(4600 * 1000, 255) };
    const input = await detectionInput(image);
    expect(input.scaleX).toBeCloseTo(0.5, 5);
    expect(input.scaleY).toBeCloseTo(0.5, 5);
    expect(await sharp(input.png).metadata()).toMatchObject({ width: 2304, height: 512 });
  });

  it('never scales a small image up', async () => {
    const input = await detectionInput({ width: 100, height: 50, data: Buffer.alloc(5000, 255) });
    expect(input).toMatchObject({ scaleX: 1, scaleY: 1 });
    expect(await sharp(input.png).metadata()).toMatchObject({ width: 128, height: 64 });
  });
});

describe('needsKoreanReading', () => {
  const box = { x: 0, y: 0, width: 400, height: 30 };

  it('trusts a line of Latin text read with confidence', () => {
    expect(needsKoreanReading(line('The quick brown fox jumps', box))).toBe(false);
  });

  it('rereads a region where nothing was read', () => {
    expect(needsKoreanReading(line('', box, 0))).toBe(true);
  });

  it('rereads a line read with low confidence', () => {
    expect(needsKoreanReading(line('The quick brown fox jumps', box, 70))).toBe(true);
  });

  it('rereads a line with Chinese characters or full-width punctuation', () => {
    expect(needsKoreanReading(line('2018.9.3.(号)09:00', box))).toBe(true);
    expect(needsKoreanReading(line('（02-2110-2428）', box))).toBe(true);
  });

  it('rereads a line with far fewer characters than its width holds', () => {
    expect(needsKoreanReading(line('04275316300', { x: 0, y: 0, width: 625, height: 23 }))).toBe(true);
  });
});

describe('koreanRegions', () => {
  it('joins lines to reread that follow each other in a column and pads them within the page', () => {
    const lines = [
      line('', { x: 100, y: 10, width: 500, height: 30 }, 0),
      line('', { x: 100, y: 50, width: 400, height: 30 }, 0),
      line('Plain English text here', { x: 100, y: 90, width: 400, height: 30 }),
      line('', { x: 100, y: 300, width: 500, height: 30 }, 0),
    ];
    expect(koreanRegions(lines, 1000, 400)).toEqual([
      { x: 85, y: 0, width: 530, height: 95 },
      { x: 85, y: 285, width: 530, height: 60 },
    ]);
  });

  it('finds nothing to reread on a page read with confidence', () => {
    expect(koreanRegions([line('All of it is fine', { x: 0, y: 0, width: 300, height: 30 })], 300, 30)).toEqual([]);
  });
});

describe('crop', () => {
  it('copies the rows of a box into an image of its own', () => {
    const image = { width: 4, height: 3, data: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) };
    expect(crop(image, { x: 1, y: 1, width: 2, height: 2 })).toEqual({
      width: 2,
      height: 2,
      data: Buffer.from([5, 6, 9, 10]),
    });
  });
});
