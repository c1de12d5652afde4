import { ReadingTimeout, type OcrLine, type OcrRequest, type OcrWord } from './engine';
import { tessdataFolder } from './tessdata';
import { toLine } from './tesseract-tsv';

/**
 * tesseract.js, when the native program is missing: the same models in WebAssembly, one worker
 * per model and language set.
 */

interface WasmBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface WasmPage {
  blocks:
    | {
        paragraphs: { lines: { words: { text: string; confidence: number; bbox: WasmBbox }[] }[] }[];
      }[]
    | null;
}
interface WasmWorker {
  setParameters(params: Record<string, string>): Promise<unknown>;
  recognize(image: Buffer, options: object, output: object): Promise<{ data: WasmPage }>;
  terminate(): Promise<unknown>;
}

/** One tesseract.js worker per model and language set, created on first use. */
export class WasmReader {
  private readonly workers = new Map<string, Promise<WasmWorker>>();

  async read(
    pgm: Buffer,
    psm: number,
    model: OcrRequest['model'],
    languages: string[],
    signal?: AbortSignal,
  ): Promise<OcrLine[]> {
    const key = `${model}:${languages.join('+')}`;
    const worker = await this.worker(key, model, languages);
    await worker.setParameters({ tessedit_pageseg_mode: String(psm), preserve_interword_spaces: '1' });
    // A reading stopped by the page's safety valve ends its worker, which cannot be interrupted otherwise.
    const { data } = await untilAborted(worker.recognize(pgm, {}, { blocks: true, text: false }), signal, () => {
      this.workers.delete(key);
      void worker.terminate();
    });
    const out: OcrLine[] = [];
    (data.blocks ?? []).forEach((block, b) =>
      block.paragraphs.forEach((paragraph, p) =>
        paragraph.lines.forEach((line) => {
          const words: OcrWord[] = line.words
            .filter((w) => w.text.trim() !== '')
            .map((w) => ({
              text: w.text.trim(),
              confidence: w.confidence,
              box: { x: w.bbox.x0, y: w.bbox.y0, width: w.bbox.x1 - w.bbox.x0, height: w.bbox.y1 - w.bbox.y0 },
            }));
          if (words.length > 0) out.push(toLine(words, `${b}.${p}`));
        }),
      ),
    );
    return out;
  }

  private worker(key: string, model: OcrRequest['model'], languages: string[]): Promise<WasmWorker> {
    let worker = this.workers.get(key);
    if (!worker) {
      worker = (async () => {
        const tesseract = (await import('tesseract.js')) as unknown as {
          createWorker: (langs: string, oem: number, options: object) => Promise<WasmWorker>;
        };
        return tesseract.createWorker(languages.join('+'), 1, {
          langPath: await tessdataFolder(model === 'premium' ? 'best' : 'fast', 'gzip'),
          cacheMethod: 'none',
          gzip: true,
        });
      })();
      this.workers.set(key, worker);
    }
    return worker;
  }

  async close(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    for (const worker of workers) await (await worker).terminate();
  }
}

/** `work`, or a ReadingTimeout as soon as `signal` aborts (after `stop` has been called). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, stop: () => void): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    stop();
    return Promise.reject(new ReadingTimeout());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      stop();
      reject(new ReadingTimeout());
    };
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
