import type { Corner } from './reading-order';

/** What the rapidocr model thread is started with. */
export interface RapidOcrThreadData {
  /** The resolved entry point of `@gutenye/ocr-node`, whose models sit beside its `ocr-common`. */
  packageEntry: string;
  /** onnxruntime's threads: the worker slot's, so concurrent slots do not each start one per core. */
  threads: number;
}

/** One page to read, as PNG bytes, under an id the answer repeats. */
export interface RapidOcrPageRequest {
  id: number;
  png: Uint8Array;
}

/** A line as the package reports it: the quadrilateral in detection-image pixels, text, confidence 0…1. */
export interface DetectedLine {
  corners: Corner[];
  text: string;
  mean: number;
}

/** What the thread posts: once `ready` or `failed` (the models did not load), then one answer per page. */
export type RapidOcrThreadMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | { kind: 'lines'; id: number; lines: DetectedLine[] }
  | { kind: 'error'; id: number; message: string };
