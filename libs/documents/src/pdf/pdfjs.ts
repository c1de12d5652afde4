import type * as PdfJs from 'pdfjs-dist';

type PdfJsModule = typeof PdfJs;

let loaded: Promise<PdfJsModule> | undefined;

/**
 * pdfjs-dist 5 (legacy build for Node) with its worker code running in this thread: the
 * worker module is loaded up front and published where pdf.js looks for it, so no worker
 * file is fetched or spawned.
 */
export function pdfjs(): Promise<PdfJsModule> {
  loaded ??= (async () => {
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(WORKER);
    return (await import(LIBRARY)) as PdfJsModule;
  })();
  return loaded;
}

// The legacy build runs on Node; its paths carry no types, so they are named here.
const WORKER: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
const LIBRARY: string = 'pdfjs-dist/legacy/build/pdf.mjs';

/** Options that keep pdf.js from evaluating code, touching fonts or printing warnings. */
export const PDF_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  verbosity: 0,
  stopAtErrors: false,
} as const;
