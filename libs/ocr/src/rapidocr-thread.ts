import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Corner } from './reading-order';
import type {
  DetectedLine,
  RapidOcrPageRequest,
  RapidOcrThreadData,
  RapidOcrThreadMessage,
} from './rapidocr-thread-protocol';

/**
 * The rapidocr model thread: loads the detection and recognition models once, then reads one
 * page at a time on request. Detection's pre- and post-processing run in JavaScript for seconds
 * per page, which is why they run here and not on the worker's event loop.
 *
 * The package is an ES module (loaded with `import()`, which Node 20 serves to CommonJS too);
 * its `Detection` and `Recognition` classes are not exported, so they are loaded from the file
 * beside the package's entry point.
 */
if (parentPort) serve(parentPort, workerData as RapidOcrThreadData);

/** The parts of the package's models this thread uses (their published types name a path, not bytes). */
interface Region {
  box: Corner[];
}
interface Detection {
  run(image: Buffer): Promise<Region[]>;
}
interface Recognition {
  run(regions: Region[]): Promise<{ text: string; mean: number }[]>;
}
interface ModelClass<T> {
  create(options: object): Promise<T>;
}
interface Models {
  detection: Detection;
  recognition: Recognition;
}

function serve(port: MessagePort, data: RapidOcrThreadData): void {
  const post = (message: RapidOcrThreadMessage) => port.postMessage(message);
  const models = load(data);
  models.then(
    () => post({ kind: 'ready' }),
    (error: unknown) => post({ kind: 'failed', message: messageOf(error) }),
  );
  let queue = Promise.resolve();
  port.on('message', ({ id, png }: RapidOcrPageRequest) => {
    queue = queue.then(async () => {
      try {
        post({ kind: 'lines', id, lines: await read(await models, png) });
      } catch (error) {
        post({ kind: 'error', id, message: messageOf(error) });
      }
    });
  });
}

async function load({ packageEntry, threads }: RapidOcrThreadData): Promise<Models> {
  // Importing the package registers its onnxruntime and sharp backend.
  await import(packageEntry);
  const common = createRequire(packageEntry).resolve('@gutenye/ocr-common');
  const models = (await import(join(dirname(common), 'models', 'index.js'))) as {
    Detection: ModelClass<Detection>;
    Recognition: ModelClass<Recognition>;
  };
  // Without onnxruntime's memory arena a page peaks at half the memory, in the same time.
  const options = { onnxOptions: { enableCpuMemArena: false, intraOpNumThreads: threads, interOpNumThreads: 1 } };
  return { detection: await models.Detection.create(options), recognition: await models.Recognition.create(options) };
}

async function read({ detection, recognition }: Models, png: Uint8Array): Promise<DetectedLine[]> {
  const regions = await detection.run(Buffer.from(png));
  const lines: DetectedLine[] = [];
  for (const region of regions) {
    // One line at a time: recognising them together joins side-by-side lines into one.
    const [line] = await recognition.run([region]);
    lines.push({ corners: region.box, text: line ? line.text : '', mean: line ? line.mean : 0 });
  }
  return lines;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
