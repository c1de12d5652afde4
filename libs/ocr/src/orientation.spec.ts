import type { GreyImage } from './engine';
import sharp from 'sharp';
import { detectOrientation, skewWhenTurned } from './orientation';
import { darkGreys, estimateSkew, rotate, turn } from './page-ink';
import { textImage } from './testing/text-image';
import { probeConfidence } from './tesseract-native';

const LINES = [
  'The committee reviewed the quarterly figures and',
  'found that revenue grew in every region, while costs',
  'stayed flat. Shipping delays in the spring were',
  'resolved by adding a second warehouse, and customer',
  'complaints fell by a third compared with the same',
  'period last year. The board approved the budget.',
];

const KOREAN = [
  '우리가 독자 개발하여 최초 발사하는 한국형발사체의 이름은',
  '국민이 정한 누리로, 세상의 옛말이며 우주까지 확장된 새로운',
  '세상을 연다는 의미를 담았다. 명칭 공모전에는 약 육천여 명의',
  '국민이 참여하여 만 건 이상의 응모작을 제출하여 뜨거운 관심을',
  '보였다. 한국형발사체는 실용위성을 지구 저궤도까지 쏘아 올릴',
];

/** A page of text: DejaVu Sans, or a Korean face. */
function page(lines = LINES, font = 'DejaVu Sans', size = 40): Promise<GreyImage> {
  return textImage(lines, { width: 1400, font, size });
}

/**
 * `count` lines cut from `lines` run together, each starting further into the text, as a page's
 * lines do: the same lines repeated would stack their characters into columns as sharp as rows.
 */
function staggered(lines: string[], count: number): string[] {
  const text = lines.join(' ');
  return Array.from({ length: count }, (_, i) => {
    const start = (i * 17) % text.length;
    return `${text.slice(start)} ${text.slice(0, start)}`.slice(0, lines[0].length).trim();
  });
}

describe('orientation and language', () => {
  it.each([0, 90, 180, 270])('finds the turn that makes an English page turned by %i° upright', async (degrees) => {
    const found = await detectOrientation(await turn(await page(), degrees), ['eng', 'kor']);
    expect(found?.language).toBe('eng');
    expect((degrees + found!.turn) % 360).toBe(0);
  });

  it.each([0, 90, 180])('finds the turn and the language of a Korean page turned by %i°', async (degrees) => {
    const korean = await page(KOREAN, 'NanumGothic', 28);
    const found = await detectOrientation(await turn(korean, degrees), ['eng', 'kor']);
    expect(found?.language).toBe('kor');
    expect((degrees + found!.turn) % 360).toBe(0);
  });

  it.each([
    ['an English', LINES, 'DejaVu Sans', 40, 'eng', ['eng']],
    ['a Korean', KOREAN, 'NanumGothic', 28, 'kor', ['eng', 'kor']],
  ])(
    'settles %s page standing upright from a glance at a few of its lines, one reading per language tried',
    async (_, lines, font, size, language, tried) => {
      const full = await textImage(staggered(lines, 24), { width: 1400, font, size });
      const readings: { strip: GreyImage; language: string }[] = [];
      const found = await detectOrientation(full, ['eng', 'kor'], (strip, read) => {
        readings.push({ strip, language: read });
        return probeConfidence(strip, read);
      });
      expect(found).toMatchObject({ turn: 0, language });
      expect(readings.map((reading) => reading.language)).toEqual(tried);
      // A few lines of the page, not the sixth of it a full probe reads.
      for (const { strip } of readings) expect(strip.height).toBeLessThan(full.height / 8);
    },
  );

  it('reads a strip upside down only when a reading of it as it lies held enough text to count', async () => {
    const readings: { strip: GreyImage; characters: number }[] = [];
    await detectOrientation(await page(['Hi there']), ['eng', 'kor'], async (strip, language) => {
      const reading = await probeConfidence(strip, language);
      readings.push({ strip, characters: reading.characters });
      return reading;
    });
    // A half turn of grey pixels is their order reversed.
    const halfTurned = (image: GreyImage) => Buffer.from(image.data).reverse();
    const flipped = readings.filter(({ strip }, i) =>
      readings.slice(0, i).some((earlier) => Buffer.from(strip.data).equals(halfTurned(earlier.strip))),
    );
    expect(readings.length).toBeGreaterThan(flipped.length);
    for (const { strip } of flipped) {
      const asItLies = readings.filter((earlier) => Buffer.from(strip.data).equals(halfTurned(earlier.strip)));
      // The fewest characters a reading of a full probe must hold to count (8).
      expect(Math.max(...asItLies.map((reading) => reading.characters))).toBeGreaterThanOrEqual(8);
    }
  });

  it('cannot tell on a page with almost no text', async () => {
    expect(await detectOrientation(await page(['Hi']), ['eng'])).toBeUndefined();
  });
});

describe('ink', () => {
  it("is what is darker than mid-grey once the contrast is stretched, as sharp's normalise makes it", async () => {
    const clean = await page();
    // A faded copy: grey text (about 90) on a light grey ground (about 218), no pixel under mid-grey.
    const faded = { ...clean, data: Buffer.from(clean.data.map((v) => 90 + Math.round(v / 2))) };
    for (const image of [clean, faded]) {
      const stretched = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
        .normalise()
        .greyscale()
        .raw()
        .toBuffer();
      const dark = darkGreys(image.data);
      let ink = 0;
      let differ = 0;
      for (let i = 0; i < image.data.length; i++) {
        ink += dark[image.data[i]];
        if (dark[image.data[i]] !== (stretched[i] < 128 ? 1 : 0)) differ++;
      }
      expect(ink).toBeGreaterThan(image.data.length * 0.01);
      expect(differ).toBeLessThan(ink * 0.02);
    }
  });
});

describe('skew', () => {
  it('measures how far lines of text slope, either way, and finds none on a straight page', async () => {
    const straight = await page();
    expect(Math.abs(await estimateSkew(straight))).toBeLessThan(0.3);
    // sharp turns clockwise: lines then run down to the right, a positive skew.
    expect(await estimateSkew(await rotate(straight, 3))).toBeCloseTo(3, 0);
    expect(await estimateSkew(await rotate(straight, -2))).toBeCloseTo(-2, 0);
  });

  it.each([0, 90, 180, 270] as const)(
    'of a page that a %i° turn makes upright is measured as the probes measure it',
    async (degrees) => {
      // A page skewed by 2.5° and then laid down so that a turn of `degrees` stands it up again.
      const lying = await turn(await rotate(await page(), 2.5), (360 - degrees) % 360);
      const found = await detectOrientation(lying, ['eng']);
      expect(found?.turn).toBe(degrees);
      expect(await skewWhenTurned(lying, degrees)).toBe(found!.skew);
      // Turned upright and rotated by minus the skew, the page stands straight (a half turn keeps the slope).
      expect(found!.skew).toBeCloseTo(2.5, 0);
      const upright = await rotate(await turn(lying, found!.turn), -found!.skew);
      expect(Math.abs(await estimateSkew(upright))).toBeLessThan(0.5);
    },
    30_000,
  );

  it('rotating by minus the skew straightens the page', async () => {
    const skewed = await rotate(await page(), 4);
    const straightened = await rotate(skewed, -(await estimateSkew(skewed)));
    expect(Math.abs(await estimateSkew(straightened))).toBeLessThan(0.5);
  });

  it('turns by quarter turns, swapping the sides', async () => {
    const original = await page();
    const turned = await turn(original, 90);
    expect([turned.width, turned.height]).toEqual([original.height, original.width]);
    expect(turned.data.length).toBe(turned.width * turned.height);
    expect(await turn(original, 0)).toBe(original);
  });
});
