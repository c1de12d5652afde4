import { turn, type GreyImage } from '@docconv/ocr';
import sharp from 'sharp';
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

/** A page budget no machine running these tests runs out of: what they check must not depend on its speed. */
const UNHURRIED_SECONDS = 600;

const options = (pageBudgetSeconds = UNHURRIED_SECONDS): OcrOptions => ({
  engine: 'tesseract',
  model: 'premium',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: {},
  pageBudgetSeconds,
});

describe('reading a whole page', () => {
  it('reads a Korean page in Korean, and a line in English in English', async () => {
    const reader = new PageReader(options());
    try {
      const reading = await reader.readPage(await koreanPage());
      const text = reading.lines.map((l) => l.text).join('\n');
      expect(text).toContain('과학기술정보통신부는 우리나라 최초로');
      // The Korean model makes lookalikes of a line in English; the English reading of it is surer.
      expect(text).toContain('Korea Space Launch Vehicle II, first flight 2021');
      expect(reading.notes).toContain('1 line read better in eng');
      expect(reading.calls).toBeGreaterThanOrEqual(2); // the Korean reading, then the English one
      expect(reading.cut).toBe(false);
      expect(reading.lowConfidence).toBe(false);
      expect(reading.seconds).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('reads a later page the way the last one was read, and probes a page that lies otherwise', async () => {
    const reader = new PageReader(options());
    // The probes are Tesseract readings of a strip written to standard output (see probeConfidence).
    const spawn = jest.spyOn(jest.requireActual<typeof import('node:child_process')>('node:child_process'), 'spawn');
    const probes = () =>
      spawn.mock.calls.filter(([command, args]) => command === 'tesseract' && args?.[1] === 'stdout').length;
    try {
      const page = await koreanPage();
      const first = await reader.readPage(page);
      expect(probes()).toBeGreaterThan(0);
      spawn.mockClear();
      // The same way up and in the same language: read straight away, no probe.
      const second = await reader.readPage(page);
      expect(probes()).toBe(0);
      expect(second.lines.map((l) => l.text)).toEqual(first.lines.map((l) => l.text));
      expect(second.calls).toBe(first.calls);
      // Upside down, the Korean reading of it is poor: the probes find its way up and it is read again.
      const third = await reader.readPage(await turn(page, 180));
      expect(probes()).toBeGreaterThan(0);
      expect(third.notes).toContain('turned 180° clockwise to read it upright');
      expect(third.lines.map((l) => l.text).join('\n')).toContain('과학기술정보통신부는 우리나라 최초로');
      expect(third.calls).toBe(first.calls + 1); // the abandoned reading counts
    } finally {
      spawn.mockRestore();
      await reader.close();
    }
  }, 90_000);

  it('keeps the first reading when the time is used up, marked low-confidence, and says why', async () => {
    const reader = new PageReader(options(0.001));
    try {
      const reading = await reader.readPage(await koreanPage());
      expect(reading.calls).toBe(1);
      expect(reading.cut).toBe(true);
      expect(reading.lowConfidence).toBe(true);
      expect(reading.notes).toContain('its 0.001 s reading time ran out: the best reading so far is kept');
      expect(reading.lines.map((l) => l.text).join('\n')).toContain('한국형발사체');
    } finally {
      await reader.close();
    }
  }, 60_000);
});
