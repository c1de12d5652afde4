import { compiledThreadEntry, DomainError } from '@docconv/contracts';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import {
  countCall,
  readingResult,
  ReadingTimeout,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
  type ReadingPass,
} from './engine';
import type {
  DetectedLine,
  RapidOcrPageRequest,
  RapidOcrThreadData,
  RapidOcrThreadMessage,
} from './rapidocr-thread-protocol';
import { koreanRegions, readRegions, rereadNote } from './korean-regions';
import { boxAround, lineFromText, orderLines } from './reading-order';

/**
 * Pages are scaled down so that their long side is about this many pixels before detection. A
 * 300 dpi A4 page took 12 s and 4.2 GB at full size, 4.6 s and 1.2 GB scaled to about this.
 */
export const DETECTION_LONG_SIDE = 2300;

/** The detection model takes images whose sides are multiples of this. */
const DETECTION_STRIDE = 32;

export interface RapidOcrOptions {
  /**
   * Reads the lines PaddleOCR cannot (its models know Latin and Chinese only) when a request
   * asks for Korean; without it such lines are left as PaddleOCR read them.
   */
  korean?: OcrEngine;
  /** Threads onnxruntime may use per reading; 1 by default. */
  threads?: number;
}

/**
 * PaddleOCR PP-OCRv4 (via `@gutenye/ocr-node`, on onnxruntime) in a worker thread that loads
 * the models once and reads page after page. Each detected text line is recognised on its own
 * (the package's own `detect` joins lines side by side across columns into one), mapped back to
 * the page's pixels and put in our reading order. Lines on a page requested in Korean that the
 * model cannot have read are read again by the `korean` engine.
 */
export class RapidOcrEngine implements OcrEngine {
  readonly name = 'rapidocr';

  private static availability?: Promise<boolean>;

  private constructor(
    private readonly models: ModelThread,
    private readonly korean: OcrEngine | undefined,
  ) {}

  /** Loads the models (≈ 0.5–1 s). Fails with `engine_unavailable` when onnxruntime or the models do not load. */
  static async create(options: RapidOcrOptions = {}): Promise<RapidOcrEngine> {
    const models = new ModelThread(options.threads ?? 1);
    try {
      await models.start();
    } catch (error) {
      throw new DomainError('engine_unavailable', `The rapidocr models could not be loaded: ${messageOf(error)}`, {
        cause: error,
      });
    }
    return new RapidOcrEngine(models, options.korean);
  }

  /** Whether onnxruntime's native binding and the models load on this machine (tried once). */
  static available(): Promise<boolean> {
    RapidOcrEngine.availability ??= RapidOcrEngine.create().then(
      async (engine) => {
        await engine.close();
        return true;
      },
      () => false,
    );
    return RapidOcrEngine.availability;
  }

  async recognize(request: OcrRequest): Promise<OcrResult> {
    const { image, model, languages } = request;
    if (this.korean && request.pageLanguage === 'kor') {
      // A page in Korean: the models read none of it, the Korean engine reads it whole.
      const whole = await this.korean.recognize(request);
      return { ...whole, engine: 'rapidocr', notes: [`Korean text read by ${this.korean.name} (kor)`, ...whole.notes] };
    }
    const pass: ReadingPass = { signal: request.signal, calls: 0 };
    let lines =
      image.width > 0 && image.height > 0 ? await countCall(pass, () => this.detectLines(image, pass.signal)) : [];
    const notes: string[] = [];
    if (this.korean && languages.includes('kor')) {
      // Lines the models cannot have read (Korean on an area of a page, or what they read poorly on
      // a page in English) are read again by Tesseract, in the page's language when known.
      const regions = koreanRegions(lines, image.width, image.height);
      if (regions.length > 0) {
        const again = request.pageLanguage ? [request.pageLanguage] : languages;
        lines = await readRegions(this.korean, image, regions, model, lines, again, pass);
        notes.push(
          request.pageLanguage
            ? rereadNote(this.korean.name, regions.length, again)
            : `Korean text read by ${this.korean.name} (kor)`,
        );
      }
    }
    const read = orderLines(lines.filter((line) => line.text !== ''));
    return readingResult('rapidocr', image, read, notes, pass.calls);
  }

  /** Closes the models and the Korean engine, which this engine owns. */
  async close(): Promise<void> {
    await this.models.close();
    await this.korean?.close();
  }

  /**
   * Every text line the detector found, in the original image's pixels. Lines the recogniser
   * could not read (confidence under one half) have an empty text and confidence 0.
   */
  private async detectLines(image: GreyImage, signal?: AbortSignal): Promise<OcrLine[]> {
    const input = await detectionInput(image);
    const detected = await this.models.read(input.png, signal);
    return detected.map(({ corners, text, mean }) => {
      const page = corners.map(([x, y]) => [x / input.scaleX, y / input.scaleY]);
      const read = text.trim();
      return lineFromText(read, boxAround(page, image.width, image.height), read ? mean * 100 : 0);
    });
  }
}

/** The image the detector gets, and how much smaller than the original it is along each axis. */
export interface DetectionInput {
  png: Buffer;
  scaleX: number;
  scaleY: number;
}

/**
 * The page scaled down to a long side of `DETECTION_LONG_SIDE` (never up) and padded with white
 * at the right and bottom to multiples of 32, as a PNG. The package would otherwise fit the
 * image into such a size itself, centring it between black bars and shifting every box.
 */
export async function detectionInput(image: GreyImage): Promise<DetectionInput> {
  const scale = Math.min(1, DETECTION_LONG_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });
  if (scale < 1) pipeline = pipeline.resize(width, height, { fit: 'fill' });
  const png = await pipeline
    .extend({
      right: paddingTo(width, DETECTION_STRIDE),
      bottom: paddingTo(height, DETECTION_STRIDE),
      background: '#ffffff',
    })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, scaleX: width / image.width, scaleY: height / image.height };
}

function paddingTo(size: number, multiple: number): number {
  return (multiple - (size % multiple)) % multiple;
}

// ---------------------------------------------------------------------------------------------
// The model thread

interface Pending {
  resolve(lines: DetectedLine[]): void;
  reject(error: Error): void;
}

/**
 * The worker thread that holds the models. Detection's pre- and post-processing run in
 * JavaScript for seconds per page, so they must not block the main event loop (queue locks,
 * health checks). Pages are read one at a time. If the thread dies, pending reads fail and the
 * next read starts a new thread.
 */
class ModelThread {
  constructor(private readonly threads: number) {}

  private worker?: Worker;
  private starting?: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the rapidocr engine was closed'));
    this.starting ??= new Promise<void>((resolve, reject) => {
      const data: RapidOcrThreadData = { packageEntry: require.resolve('@gutenye/ocr-node'), threads: this.threads };
      const worker = new Worker(compiledThreadEntry(__dirname, 'rapidocr-thread.js'), { workerData: data });
      this.worker = worker;
      worker.on('message', (message: RapidOcrThreadMessage) => {
        switch (message.kind) {
          case 'ready':
            worker.unref();
            return resolve();
          case 'failed':
            void worker.terminate();
            return reject(new Error(message.message));
          case 'lines':
            return this.settle(message.id, (p) => p.resolve(message.lines));
          case 'error':
            return this.settle(message.id, (p) =>
              p.reject(new Error(`rapidocr could not read the page: ${message.message}`)),
            );
        }
      });
      worker.on('error', (error) => this.stopped(worker, error));
      worker.on('exit', (code) => {
        const error = new Error(`the rapidocr model thread stopped (exit code ${code})`);
        this.stopped(worker, error);
        reject(error);
      });
    });
    return this.starting;
  }

  /**
   * The lines of one page. Once `signal` aborts (the page's safety valve), the thread is ended, the
   * read rejects with ReadingTimeout and the next read starts a new thread.
   */
  async read(png: Buffer, signal?: AbortSignal): Promise<DetectedLine[]> {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new Error('the rapidocr model thread is not running');
    if (signal?.aborted) throw new ReadingTimeout();
    const id = this.nextId++;
    const lines = new Promise<DetectedLine[]>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Keep the process alive only while a page is being read.
    if (this.pending.size === 1) worker.ref();
    worker.postMessage({ id, png } satisfies RapidOcrPageRequest);
    if (!signal) return lines;
    const stop = () => {
      this.stopped(worker, new ReadingTimeout());
      void worker.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      return await lines;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.stopped(worker, new Error('the rapidocr engine was closed'));
    await worker.terminate();
  }

  private settle(id: number, settle: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    settle(pending);
  }

  /** The thread ended or crashed: fail every pending read and start afresh on the next one. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.starting = undefined;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
