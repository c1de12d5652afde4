import { DEFAULT_OCR_PAGE_DEADLINE_SECONDS } from '@docconv/config';
import { extractToMarkdown, type PageReport } from '@docconv/reading';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { similarity, wordSpacing } from '../tools/eval/metrics';
import { evalsetPath } from './evalset';

/** Dev pages read by OCR, one per script: a Korean press release and a European text sample. */
const PAGES = ['image/noori-1page.jpg', 'image/tess_eurotext.tif'];

/** How much a turned copy's similarity may fall below the upright page's. */
const TOLERANCE = 0.02;

async function read(path: string): Promise<{ markdown: string; page: PageReport }> {
  const { markdown, pages } = await extractToMarkdown(
    {
      path,
      kind: 'image',
      mime: 'image/png',
      displayName: 'page.png',
      units: 1,
      ocr: {
        engine: 'tesseract',
        model: 'premium',
        dpi: 300,
        languages: ['eng', 'kor'],
        settings: {},
        pageDeadlineSeconds: DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
      },
    },
    () => {},
  );
  return { markdown, page: pages[0] };
}

describe('scanned pages lying sideways, upside down or skewed read as well as upright ones', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-orientation-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it.each(PAGES)(
    '%s turned by 90° and by 180° (copies made here) reads within 0.02 of the upright page',
    async (relative) => {
      const reference = await readFile(evalsetPath(relative.replace(/\.[^.]+$/, '.ref.txt')), 'utf8');
      const upright = join(folder, 'upright.png');
      await sharp(evalsetPath(relative)).png().toFile(upright);
      const base = await read(upright);
      const baseScore = similarity(base.markdown, reference);
      for (const degrees of [90, 180]) {
        const turned = join(folder, `turned-${degrees}.png`);
        await sharp(evalsetPath(relative)).rotate(degrees).png().toFile(turned);
        const { markdown, page } = await read(turned);
        const score = similarity(markdown, reference);
        process.stdout.write(
          `${relative} turned ${degrees}°: similarity ${score.toFixed(3)} (upright ${baseScore.toFixed(3)})` +
            `${wordSpacing(markdown, reference) ? `, word spacing F1 ${wordSpacing(markdown, reference)!.f1.toFixed(3)}` : ''}\n`,
        );
        expect(score).toBeGreaterThanOrEqual(baseScore - TOLERANCE);
        expect(page.notes).toContain(`turned ${360 - degrees}° clockwise to read it upright`);
      }
    },
    240_000,
  );

  it('a copy skewed by 3° is straightened and reads within 0.02 of the upright page', async () => {
    const relative = 'image/tess_eurotext.tif';
    const reference = await readFile(evalsetPath('image/tess_eurotext.ref.txt'), 'utf8');
    const upright = join(folder, 'straight.png');
    await sharp(evalsetPath(relative)).png().toFile(upright);
    const skewed = join(folder, 'skewed.png');
    await sharp(evalsetPath(relative)).rotate(3, { background: '#ffffff' }).png().toFile(skewed);
    const base = similarity((await read(upright)).markdown, reference);
    const { markdown, page } = await read(skewed);
    process.stdout.write(
      `${relative} skewed 3°: similarity ${similarity(markdown, reference).toFixed(3)} (straight ${base.toFixed(3)})\n`,
    );
    expect(page.notes?.some((note) => /^straightened by [23]\.\d°$/.test(note))).toBe(true);
    expect(similarity(markdown, reference)).toBeGreaterThanOrEqual(base - TOLERANCE);
  }, 240_000);
});
