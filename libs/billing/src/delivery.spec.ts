import { DEFAULT_PRICES, type PriceTable } from '@docconv/config';
import type { OcrModel } from '@docconv/db';
import { deliveredOf, measure, settle, type Charged, type PricedFile } from './delivery';
import { quote } from './pricing';

const pdf = (pages: number): PricedFile => ({ kind: 'pdf', pages, images: 0, durationSeconds: 0 });
const image = (frames: number): PricedFile => ({ kind: 'image', pages: 0, images: frames, durationSeconds: 0 });
const docx = (pages: number): PricedFile => ({ kind: 'docx', pages, images: 0, durationSeconds: 0 });
const audio = (seconds: number): PricedFile => ({ kind: 'audio', pages: 0, images: 0, durationSeconds: seconds });
const video = (seconds: number): PricedFile => ({ kind: 'video', pages: 0, images: 0, durationSeconds: seconds });
const markdown: PricedFile = { kind: 'markdown', pages: 0, images: 0, durationSeconds: 0 };

/** A job charged as intake charges an upload of `files`: its quote, with `freePagesLeft` free pages. */
function charged(files: PricedFile[], model: OcrModel, freePagesLeft: number, prices: PriceTable): Charged {
  const measured = measure(files);
  const q = quote({ measured, model, refinement: false, freePagesLeft }, prices);
  return {
    costPoints: q.points,
    freePagesUsed: q.free_pages_used,
    ocrModel: model,
    doclingRefinement: false,
    totalPages: measured.pages,
    imageCount: measured.images,
  };
}

describe('measure', () => {
  it('sums pages and images, and keeps each recording’s seconds apart by kind', () => {
    expect(measure([pdf(3), image(2), docx(4), audio(61), audio(5), video(30), markdown])).toEqual({
      pages: 7,
      images: 2,
      audioSeconds: [61, 5],
      videoSeconds: [30],
    });
    expect(measure([])).toEqual({ pages: 0, images: 0, audioSeconds: [], videoSeconds: [] });
  });
});

describe('deliveredOf', () => {
  it('delivers the pages of a PDF and the frames of an image that were read, stopped or not', () => {
    expect(deliveredOf(pdf(10), 4, true)).toEqual(pdf(4));
    expect(deliveredOf(pdf(10), 10, false)).toEqual(pdf(10));
    expect(deliveredOf(image(5), 2, true)).toEqual(image(2));
  });

  it('delivers any other file whole, unless it stopped at a cancel', () => {
    expect(deliveredOf(docx(7), 0, false)).toEqual(docx(7));
    expect(deliveredOf(audio(61), 0, false)).toEqual(audio(61));
    expect(deliveredOf(docx(7), 0, true)).toBeNull();
  });

  it('counts a page-less file read whole as delivered, and a paged file with nothing read as not', () => {
    expect(deliveredOf(markdown, 0, false)).toEqual(markdown);
    expect(deliveredOf(pdf(10), 0, false)).toBeNull();
    expect(deliveredOf(image(3), 0, false)).toBeNull();
  });
});

describe('settle', () => {
  const upload = [pdf(10), image(3), docx(2), audio(15), video(7)];

  it.each<[OcrModel, number]>([
    ['premium', 0],
    ['basic', 0],
    ['basic', 4],
    ['basic', 500],
  ])('gives nothing back for a %s job (%i free pages left) that delivered all it was quoted for', (model, free) => {
    const job = charged(upload, model, free, DEFAULT_PRICES);
    expect(job.costPoints).toBeGreaterThan(0);
    expect(settle(job, upload, DEFAULT_PRICES)).toEqual({ points: 0, freePages: 0, pages: 12, images: 3, refunded: 0 });
  });

  it('gives back the premium price of the pages not delivered', () => {
    const job = charged([pdf(10)], 'premium', 0, DEFAULT_PRICES);
    expect(job.costPoints).toBe(300);
    expect(settle(job, [pdf(4)], DEFAULT_PRICES)).toEqual({
      points: 180,
      freePages: 0,
      pages: 4,
      images: 0,
      refunded: 6,
    });
  });

  it('counts the free pages against what was delivered first, and returns those it did not use', () => {
    const job = charged([pdf(10)], 'basic', 3, DEFAULT_PRICES);
    expect(job).toMatchObject({ costPoints: 70, freePagesUsed: 3 });
    // 4 pages delivered: 3 free and 1 paid, so 6 paid pages come back and no free page does.
    expect(settle(job, [pdf(4)], DEFAULT_PRICES)).toMatchObject({ points: 60, freePages: 0, refunded: 6 });
    // 2 pages delivered: both free, so every paid page and 1 free page come back.
    expect(settle(job, [pdf(2)], DEFAULT_PRICES)).toMatchObject({ points: 70, freePages: 1, refunded: 8 });
    expect(settle(job, [], DEFAULT_PRICES)).toMatchObject({ points: 70, freePages: 3, refunded: 10 });
  });

  it('keeps money exact under rounding: what is given back and what the delivery costs add up to the charge', () => {
    const prices: PriceTable = { ...DEFAULT_PRICES, imagePremium: '0.5', pagePremium: '0.3', audioSecond: '0.1' };
    const files = [image(3), pdf(7), audio(15)];
    const job = charged(files, 'premium', 0, prices);
    // ceil(3 × 0.5 + 7 × 0.3) = ceil(3.6) = 4, and 15 s × 0.1 rounded up per file = 2.
    expect(job.costPoints).toBe(6);
    for (const delivered of [[image(1)], [image(1), pdf(1)], [pdf(7), audio(15)], [image(3), pdf(7)], files]) {
      const { points } = settle(job, delivered, prices);
      const price = quote(
        { measured: measure(delivered), model: 'premium', refinement: false, freePagesLeft: 0 },
        prices,
      );
      expect(points + price.points).toBe(job.costPoints);
    }
  });

  it('never gives back more than was charged, nor less than nothing', () => {
    const job = { ...charged([pdf(2)], 'premium', 0, DEFAULT_PRICES), costPoints: 10 };
    expect(settle(job, [pdf(2)], DEFAULT_PRICES).points).toBe(0);
    expect(settle(job, [], DEFAULT_PRICES).points).toBe(10);
  });
});
