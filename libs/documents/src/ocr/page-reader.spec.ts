import { turn, type GreyImage } from '@docconv/ocr';
import sharp from 'sharp';
import { layoutDocument } from '../pdf/layout-document';
import { PageNotRead } from '../page-failure';
import { ocrPageLines } from './ocr-page';
import { PageReader, type OcrOptions } from './page-reader';

const LINES = [
  '과학기술정보통신부는 우리나라 최초로 순수 우리기술로 개발 중인',
  '한국형발사체(KSLV-2)의 새로운 이름으로 누리가 선정되었다고',
  '밝혔다. 한국형발사체는 1.5톤급 실용위성을 지구 저궤도까지 쏘아',
  '올릴 수 있는 3단형 우주발사체로, 연간 130여개 기관이 참여하여',
  '2021년 발사를 목표로 개발하고 있다.',
  'Korea Space Launch Vehicle II, first flight 2021',
];

/** A Korean page as grey pixels, set in NanumGothic. */
async function koreanPage(): Promise<GreyImage> {
  const rows = LINES.map(
    (line, i) => `<text x="60" y="${120 + i * 56}" font-family="NanumGothic" font-size="30">${line}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="500"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const options = (pageDeadlineSeconds = 600): OcrOptions => ({
  engine: 'tesseract',
  model: 'premium',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: {},
  pageDeadlineSeconds,
});

/** A picture without text: discs of several greys, as a photograph is shades without letters. */
async function picture(): Promise<GreyImage> {
  const discs = Array.from({ length: 25 }, (_, i) => {
    const grey = (i * 40) % 200;
    return `<circle cx="${(i * 137) % 1000}" cy="${(i * 211) % 700}" r="${30 + ((i * 17) % 60)}" fill="rgb(${grey},${grey},${grey})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect width="100%" height="100%" fill="white"/>${discs}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** A ruled table of three rows and two columns, its figures set close to the column rules, under a line of text. */
async function ruledTablePage(): Promise<GreyImage> {
  const rows = [
    ['Region', 'Sales'],
    ['North', '1204.5'],
    ['South', '987.25'],
  ];
  const ys = [200, 270, 340, 410];
  const xs = [100, 500, 760];
  const rules = [
    ...ys.map((y) => `<rect x="${xs[0]}" y="${y}" width="${xs[2] - xs[0] + 2}" height="2"/>`),
    ...xs.map((x) => `<rect x="${x}" y="${ys[0]}" width="2" height="${ys[3] - ys[0] + 2}"/>`),
  ].join('');
  const cells = rows
    .map(
      ([name, figure], i) =>
        `<text x="${xs[0] + 16}" y="${ys[i] + 48}" font-family="DejaVu Sans" font-size="32">${name}</text>` +
        `<text x="${xs[2] - 6}" y="${ys[i] + 48}" text-anchor="end" font-family="DejaVu Sans" font-size="32">${figure}</text>`,
    )
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="600"><rect width="100%" height="100%" fill="white"/>` +
    `<text x="100" y="120" font-family="DejaVu Sans" font-size="32">Sales by region</text>${rules}${cells}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const rejection = async (reading: Promise<unknown>): Promise<PageNotRead> => {
  const error = await reading.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PageNotRead);
  return error as PageNotRead;
};

describe('reading a whole page', () => {
  it('reads a Korean page in Korean, and a line in English in English', async () => {
    const reader = new PageReader(options());
    try {
      const reading = await reader.readPage(await koreanPage(), 1);
      const text = reading.lines.map((l) => l.text).join('\n');
      expect(text).toContain('과학기술정보통신부는 우리나라 최초로');
      // The Korean model makes lookalikes of a line in English; the English reading of it is surer.
      expect(text).toContain('Korea Space Launch Vehicle II, first flight 2021');
      expect(reading.notes).toContain('1 line read better in eng');
      expect(reading.calls).toBeGreaterThanOrEqual(2); // the Korean reading, then the English one
      expect(reading.lowConfidence).toBe(false);
      expect(reading.seconds).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('reads the next page of a block the way the last one was read, and probes a page that lies otherwise or opens a block', async () => {
    const reader = new PageReader(options());
    // The probes are Tesseract readings of a strip written to standard output (see probeConfidence).
    const spawn = jest.spyOn(jest.requireActual<typeof import('node:child_process')>('node:child_process'), 'spawn');
    const probes = () =>
      spawn.mock.calls.filter(([command, args]) => command === 'tesseract' && args?.[1] === 'stdout').length;
    try {
      const page = await koreanPage();
      const first = await reader.readPage(page, 1);
      expect(probes()).toBeGreaterThan(0);
      spawn.mockClear();
      // The same way up and in the same language: read straight away, no probe.
      const second = await reader.readPage(page, 2);
      expect(probes()).toBe(0);
      expect(second.lines.map((l) => l.text)).toEqual(first.lines.map((l) => l.text));
      expect(second.calls).toBe(first.calls);
      // Upside down, the Korean reading of it is poor: the probes find its way up and it is read again.
      const third = await reader.readPage(await turn(page, 180), 3);
      expect(probes()).toBeGreaterThan(0);
      expect(third.notes).toContain('turned 180° clockwise to read it upright');
      expect(third.lines.map((l) => l.text).join('\n')).toContain('과학기술정보통신부는 우리나라 최초로');
      expect(third.calls).toBe(first.calls + 1); // the abandoned reading counts
      await reader.readPage(page, 5);
      spawn.mockClear();
      // Page 6 opens the next block: probed whatever page 5 said, as if the file had been cut there.
      const sixth = await reader.readPage(page, 6);
      expect(probes()).toBeGreaterThan(0);
      expect(sixth.lines.map((l) => l.text)).toEqual(first.lines.map((l) => l.text));
    } finally {
      spawn.mockRestore();
      await reader.close();
    }
  }, 120_000);

  it('premium: takes the lines of a ruled table out before reading its words, and gives them with the reading', async () => {
    const reader = new PageReader(options());
    try {
      const reading = await reader.readPage(await ruledTablePage(), 1);
      expect(reading.rules.filter((r) => r.y0 === r.y1).map((r) => r.y0)).toEqual([201, 271, 341, 411]);
      expect(reading.rules.filter((r) => r.x0 === r.x1).map((r) => r.x0)).toEqual([101, 501, 761]);
      const markdown = layoutDocument([ocrPageLines(reading, 'premium', 72 / 300)]);
      expect(markdown).toBe(
        'Sales by region\n\n| Region | Sales |\n| --- | --- |\n| North | 1204.5 |\n| South | 987.25 |\n',
      );
    } finally {
      await reader.close();
    }
    const basic = new PageReader({ ...options(), model: 'basic' });
    try {
      expect((await basic.readPage(await ruledTablePage(), 1)).rules).toEqual([]);
    } finally {
      await basic.close();
    }
  }, 60_000);

  it('fails a page whose reading reaches the safety valve, and reads the next one afresh', async () => {
    const reader = new PageReader(options(0.05));
    try {
      const failed = await rejection(reader.readPage(await koreanPage(), 1));
      expect(failed.failure).toBe('deadline');
      expect(failed.message).toBe('its reading was stopped after 0.05 s, the most a page may take');
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('fails a picture that yields no text, and delivers a blank page as empty', async () => {
    const reader = new PageReader(options());
    try {
      const failed = await rejection(reader.readPage(await picture(), 1));
      expect(failed.failure).toBe('no_text');
      const blank = { width: 800, height: 1000, data: Buffer.alloc(800 * 1000, 250) };
      expect((await reader.readPage(blank, 2)).lines).toEqual([]);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('fails a page the engine cannot read, naming the engine and its error', async () => {
    const reader = new PageReader(options());
    try {
      // Tesseract refuses images over 32,767 pixels wide.
      const banner = { width: 40_000, height: 60, data: Buffer.alloc(40_000 * 60, 255) };
      banner.data.fill(0, 30 * 40_000, 31 * 40_000);
      const failed = await rejection(reader.readPage(banner, 1));
      expect(failed.failure).toBe('engine_error');
      expect(failed.message).toMatch(/^the tesseract engine failed on it \(tesseract exited with 1: .*Image too large/);
    } finally {
      await reader.close();
    }
  }, 60_000);
});
