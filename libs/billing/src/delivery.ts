import type { PriceTable } from '@docconv/config';
import type { JobEntity } from '@docconv/db';
import { quote, type Measured } from './pricing';

/**
 * One file in the units it is priced in, as intake inspected it: pages (PDF, office, HWP),
 * images (an image file's frames) and seconds (a recording's). A job's file row is one.
 */
export interface PricedFile {
  kind: string;
  pages: number;
  images: number;
  durationSeconds: number;
}

/**
 * What files hold in priced units: their pages and images summed, and each recording's seconds
 * (priced and rounded per file). Intake quotes the files it inspected with it; the runner
 * settles a job with what its files delivered (see `deliveredOf`).
 */
export function measure(files: readonly PricedFile[]): Measured {
  const sum = (pick: (file: PricedFile) => number) => files.reduce((total, file) => total + pick(file), 0);
  const seconds = (kind: string) => files.filter((file) => file.kind === kind).map((file) => file.durationSeconds);
  return {
    pages: sum((file) => file.pages),
    images: sum((file) => file.images),
    audioSeconds: seconds('audio'),
    videoSeconds: seconds('video'),
  };
}

/**
 * What one file delivered, in the units it was quoted in, given the pages (or frames) of it that
 * were `read` (failed ones not counted) and whether its reading `stopped` at a cancel: a PDF its
 * pages read, an image file its frames read, any other file all of it unless it stopped. Null
 * when it delivered nothing.
 */
export function deliveredOf(file: PricedFile, read: number, stopped: boolean): PricedFile | null {
  switch (file.kind) {
    case 'pdf':
      return read > 0 ? { kind: file.kind, pages: read, images: 0, durationSeconds: 0 } : null;
    case 'image':
      return read > 0 ? { kind: file.kind, pages: 0, images: read, durationSeconds: 0 } : null;
    default:
      return stopped ? null : { kind: file.kind, pages: file.pages, images: 0, durationSeconds: file.durationSeconds };
  }
}

/** What a job's charge was set from: its quote's options, and the pages and images it was quoted for. */
export type Charged = Pick<
  JobEntity,
  'costPoints' | 'freePagesUsed' | 'ocrModel' | 'doclingRefinement' | 'totalPages' | 'imageCount'
>;

/** What a job owes its owner once it is known what it delivered. */
export interface Settlement {
  /** The points charged for what was not delivered: the charge less the delivery priced as the quote priced it. */
  points: number;
  /** The free pages the quote reserved that the delivery did not use. */
  freePages: number;
  /** The pages and images delivered. */
  pages: number;
  images: number;
  /** The pages and images charged for and not delivered. */
  refunded: number;
}

/**
 * Settles a job with the files it `delivered` (each from `deliveredOf`): they are priced as its
 * quote priced the upload (same model, refinement and free pages, so the delivery's free pages
 * are counted first), and the charge less that price is given back, never less than nothing.
 */
export function settle(job: Charged, delivered: readonly PricedFile[], prices: PriceTable): Settlement {
  const measured = measure(delivered);
  const price = quote(
    { measured, model: job.ocrModel, refinement: job.doclingRefinement, freePagesLeft: job.freePagesUsed },
    prices,
  );
  return {
    points: Math.max(0, job.costPoints - price.points),
    freePages: job.freePagesUsed - price.free_pages_used,
    pages: measured.pages,
    images: measured.images,
    refunded: Math.max(0, job.totalPages + job.imageCount - measured.pages - measured.images),
  };
}
