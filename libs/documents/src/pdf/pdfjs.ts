import type * as PdfJs from 'pdfjs-dist';

type PdfJsModule = typeof PdfJs;

let loaded: PdfJsModule | undefined;

/**
 * pdfjs-dist 5 (legacy build for Node) with its worker code running in this thread: the
 * worker module is loaded up front and published where pdf.js looks for it, so no worker
 * file is fetched or spawned.
 */
export function pdfjs(): PdfJsModule {
  if (!loaded) {
    const worker = require('pdfjs-dist/legacy/build/pdf.worker.mjs') as unknown;
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    loaded = require('pdfjs-dist/legacy/build/pdf.mjs') as PdfJsModule;
  }
  return loaded;
}

/** Options that keep pdf.js from evaluating code, touching fonts or printing warnings. */
export const PDF_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  verbosity: 0,
  stopAtErrors: false,
} as const;
