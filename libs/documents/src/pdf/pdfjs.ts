import type * as PdfJs from 'pdfjs-dist';
import { readFileSync } from 'node:fs';

type PdfJsModule = typeof PdfJs;

let loaded: Promise<PdfJsModule> | undefined;

/**
 * pdfjs-dist 5 (legacy build for Node) with its worker code running in this thread: the
 * worker module is loaded up front and published where pdf.js looks for it, so no worker
 * file is fetched or spawned.
 */
export function pdfjs(): Promise<PdfJsModule> {
  loaded ??= (async () => {
    assertPatched();
    const natives = nativeMethods();
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(WORKER);
    const library = (await import(LIBRARY)) as PdfJsModule;
    restore(natives);
    return library;
  })();
  return loaded;
}

/**
 * The built-ins whose methods the legacy build's polyfills may replace. On Node 20 they replace
 * `Array.prototype.push`, `JSON.parse` and `JSON.stringify` with script versions, for the whole
 * process: `push` twice and `stringify` ten times as slow. What they add (`Promise.withResolvers`,
 * the new `Set` methods…) pdf.js needs and keeps; what they replace is put back.
 */
const BUILT_INS: object[] = [
  Object,
  Array,
  Array.prototype,
  JSON,
  Math,
  Promise,
  String.prototype,
  Map.prototype,
  Set.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Uint8Array.prototype,
];

function nativeMethods(): Map<object, Map<string, PropertyDescriptor>> {
  return new Map(
    BUILT_INS.map((target) => [
      target,
      new Map(
        Object.getOwnPropertyNames(target).flatMap((name) => {
          const descriptor = Object.getOwnPropertyDescriptor(target, name);
          return descriptor && typeof descriptor.value === 'function' ? [[name, descriptor] as const] : [];
        }),
      ),
    ]),
  );
}

function restore(natives: Map<object, Map<string, PropertyDescriptor>>): void {
  for (const [target, methods] of natives) {
    for (const [name, descriptor] of methods) {
      if (Object.getOwnPropertyDescriptor(target, name)?.value !== descriptor.value) {
        Object.defineProperty(target, name, descriptor);
      }
    }
  }
}

/**
 * `patches/pdfjs-dist+5.6.205.patch` (applied by `npm install`'s postinstall) makes the text pass
 * mark what a page draws and name its fonts, keeps the operator list from building glyph
 * outlines, reads an embedded font program only for what text needs (its encoding, matrix and
 * Unicode fixes) instead of rebuilding it as an OpenType file to draw with, and inflates Flate
 * streams with Node's zlib in the calling thread (the web DecompressionStream it used instead
 * costs a thread-pool round trip and stream overhead per stream). Without it every page would
 * silently read as if it drew nothing. The lines in `PATCH_MARKERS` tell that it is applied.
 */
const PATCH_MARKERS = ['function markDrawing(kind)', 'constructor(file, properties, textOnly = false)'];

function assertPatched(): void {
  const worker = readFileSync(require.resolve(WORKER), 'utf8');
  if (!PATCH_MARKERS.every((marker) => worker.includes(marker))) {
    throw new Error(
      'pdfjs-dist is installed without its patch (patches/pdfjs-dist+5.6.205.patch): run `npm install`, which applies it.',
    );
  }
}

// The legacy build runs on Node; its paths carry no types, so they are named here.
const WORKER: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
const LIBRARY: string = 'pdfjs-dist/legacy/build/pdf.mjs';

/** Options that keep pdf.js from evaluating code, touching fonts or printing warnings. */
export const PDF_OPTIONS = {
  isEvalSupported: false,
  // With the patch, this is also what keeps embedded fonts from being rebuilt (nothing is drawn by pdf.js).
  disableFontFace: true,
  useSystemFonts: false,
  verbosity: 0,
  stopAtErrors: false,
} as const;
