import type { PriceTable } from '@docconv/config';
import type { OcrModel, Quote } from '@docconv/db';

/** What intake measured, in the units that are priced. */
export interface Measured {
  /** PDF, office and HWP pages. */
  pages: number;
  /** Images, each TIFF frame counting as one. */
  images: number;
  /** Whole seconds of each audio file (already rounded up per file). */
  audioSeconds: number[];
  /** Whole seconds of each video file. */
  videoSeconds: number[];
}

export interface QuoteRequest {
  measured: Measured;
  model: OcrModel;
  refinement: boolean;
  /** Free basic-model pages the user still has this month. */
  freePagesLeft: number;
}

/** A price as integer thousandths of a point, so `0.1` and `12.5` stay exact. */
function milli(price: string): number {
  const [whole, fraction = ''] = price.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
}

/**
 * The binding quote: a pure function of what was measured, the options and the price table.
 * Media is priced per file and rounded up per file; everything else is summed exactly and
 * rounded up once at the end.
 */
export function quote(request: QuoteRequest, prices: PriceTable): Quote & { refinementPages: number } {
  const { measured, model, refinement } = request;
  const freePagesUsed = model === 'basic' ? Math.min(measured.pages, Math.max(0, request.freePagesLeft)) : 0;
  const pagePrice = milli(model === 'basic' ? prices.pageBasic : prices.pagePremium);
  const imagePrice = milli(model === 'basic' ? prices.imageBasic : prices.imagePremium);
  const refinementPages = refinement ? measured.pages : 0;

  const documentMilli =
    (measured.pages - freePagesUsed) * pagePrice +
    measured.images * imagePrice +
    refinementPages * milli(prices.refinementPage);
  const mediaPoints =
    measured.audioSeconds.reduce((sum, s) => sum + Math.ceil((s * milli(prices.audioSecond)) / 1000), 0) +
    measured.videoSeconds.reduce((sum, s) => sum + Math.ceil((s * milli(prices.videoSecond)) / 1000), 0);
  const points = Math.ceil(documentMilli / 1000) + mediaPoints;

  return {
    pages: measured.pages,
    image_count: measured.images,
    audio_seconds: measured.audioSeconds.reduce((a, b) => a + b, 0),
    video_seconds: measured.videoSeconds.reduce((a, b) => a + b, 0),
    ocr_model: model,
    free_pages_used: freePagesUsed,
    points,
    usd: formatUsd(points),
    refinementPages,
  };
}

/** `$` and the amount with at least two and at most three decimals: 10000 → $10.00, 1234 → $1.234, 5 → $0.005. */
export function formatUsd(points: number): string {
  const dollars = Math.floor(points / 1000);
  const thousandths = String(points % 1000).padStart(3, '0');
  return `$${dollars}.${thousandths.endsWith('0') ? thousandths.slice(0, 2) : thousandths}`;
}

/** Points for a conversion: `unitPrice` per unit, rounded up. */
export function conversionPoints(units: number, unitPrice: string): number {
  return Math.ceil((units * milli(unitPrice)) / 1000);
}
