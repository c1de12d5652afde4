import { DomainError } from '@docconv/contracts';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  meanConfidence,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
} from './engine';
import { boxAround, lineFromText, orderLines, type Corner } from './reading-order';

/** Where the server script lives below the repository root (and below `dist` when copied there). */
const SERVER_SCRIPT = join('libs', 'ocr', 'easyocr', 'easyocr_server.py');

/** Loading torch and EasyOCR's models on a CPU takes seconds to tens of seconds. */
const DEFAULT_READY_TIMEOUT_MS = 120_000;

/** How much of the process's stderr to quote when it fails. */
const STDERR_TAIL = 2_000;

/** EasyOCR's language codes for our (Tesseract's) ones; others are passed on unchanged. */
const EASYOCR_LANGUAGES: Readonly<Record<string, string>> = { eng: 'en', kor: 'ko' };

export interface EasyOcrOptions {
  /** The Python that has `easyocr` and its weights (the worker's EASYOCR_PYTHON). */
  python: string;
  /** The server script; by default `libs/ocr/easyocr/easyocr_server.py` of this repository. */
  script?: string;
  /** Variables added to the process's environment (e.g. EASYOCR_MODEL_DIR). */
  env?: Record<string, string>;
  /** How long the process may take to load its models before it counts as failed. */
  readyTimeoutMs?: number;
}

/** One result of EasyOCR's `readtext(detail=1)`: the box's four corners, the text, confidence 0…1. */
export type EasyOcrResult = [corners: Corner[], text: string, confidence: number];

/**
 * EasyOCR in a Python child process (`easyocr_server.py`) that loads its models once and reads
 * image after image: requests go in on stdin and replies come back on stdout as JSON lines,
 * matched by id, so several pages may be in flight. If the process dies, the pages it was
 * reading fail and the next page starts a new process.
 */
export class EasyOcrEngine implements OcrEngine {
  readonly name = 'easyocr';

  private static readonly availability = new Map<string, Promise<boolean>>();

  /** The latest process: starting, running, or ended (then the next page starts another). */
  private process?: { ready: Promise<EasyOcrProcess>; server?: EasyOcrProcess; failed?: boolean };
  private closed = false;

  private constructor(private readonly options: Required<EasyOcrOptions>) {}

  /** Starts the process and waits until its models are loaded; `engine_unavailable` when it cannot. */
  static async create(options: EasyOcrOptions): Promise<EasyOcrEngine> {
    const engine = new EasyOcrEngine({
      python: options.python,
      script: options.script ?? easyOcrServerScript(),
      env: options.env ?? {},
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    });
    await engine.running();
    return engine;
  }

  /**
   * Whether the server starts with this Python: it is started, its ready line awaited (or its
   * failure, or the timeout) and stopped again. Asked once per Python and script.
   */
  static available(
    python: string | undefined,
    script = easyOcrServerScript(),
    readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS,
  ): Promise<boolean> {
    if (!python) return Promise.resolve(false);
    const key = `${python}\0${script}`;
    let answer = EasyOcrEngine.availability.get(key);
    if (!answer) {
      answer = EasyOcrProcess.start({ python, script, env: {}, readyTimeoutMs }).then(
        async (server) => {
          await server.stop();
          return true;
        },
        () => false,
      );
      EasyOcrEngine.availability.set(key, answer);
    }
    return answer;
  }

  async recognize({ image, languages }: OcrRequest): Promise<OcrResult> {
    const server = await this.running();
    const results = await server.read(image, easyOcrLanguages(languages));
    const lines = orderLines(toLines(results, image));
    return {
      engine: 'easyocr',
      width: image.width,
      height: image.height,
      lines,
      confidence: meanConfidence(lines),
      notes: [],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.process;
    this.process = undefined;
    const server = await current?.ready.catch(() => undefined);
    await server?.stop();
  }

  /**
   * The running process, or the one starting. When the last one has ended or failed to start,
   * a new one is started, shared by every page that asks meanwhile.
   */
  private running(): Promise<EasyOcrProcess> {
    if (this.closed) return Promise.reject(new Error('the easyocr engine was closed'));
    const current = this.process;
    if (current && !current.failed && !current.server?.ended) return current.ready;
    const ready = EasyOcrProcess.start(this.options).catch((error: unknown) => {
      throw new DomainError('engine_unavailable', messageOf(error), { cause: error });
    });
    const next: NonNullable<EasyOcrEngine['process']> = { ready };
    ready.then(
      (server) => (next.server = server),
      () => (next.failed = true),
    );
    this.process = next;
    return ready;
  }
}

/**
 * The server script of this repository: found by walking up from this file, so that it is the
 * same from the TypeScript sources and from `dist/libs/ocr/src`.
 */
export function easyOcrServerScript(): string {
  for (let folder = __dirname; ; folder = dirname(folder)) {
    const candidate = join(folder, SERVER_SCRIPT);
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) throw new Error(`${SERVER_SCRIPT} was not found above ${__dirname}`);
  }
}

/** EasyOCR's codes for the request's languages, always with English (every EasyOCR model pairs with it). */
export function easyOcrLanguages(languages: readonly string[]): string[] {
  return [...new Set(['en', ...languages.map((code) => EASYOCR_LANGUAGES[code] ?? code)])];
}

/** EasyOCR's results as lines in the image's pixels, empty texts dropped. */
export function toLines(results: readonly EasyOcrResult[], image: Pick<GreyImage, 'width' | 'height'>): OcrLine[] {
  return results
    .map(([corners, text, confidence]) =>
      lineFromText(text.trim(), boxAround(corners, image.width, image.height), confidence * 100),
    )
    .filter((line) => line.text !== '');
}

// ---------------------------------------------------------------------------------------------
// The process

type Reply =
  { ready: true; easyocr: string } | { id: number; results: EasyOcrResult[] } | { id: number; error: string };

interface Pending {
  resolve(results: EasyOcrResult[]): void;
  reject(error: Error): void;
}

/** One running `easyocr_server.py` and the requests it has not answered yet. */
class EasyOcrProcess {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  private exit = Promise.resolve();
  /** Whether the process has exited (or been stopped). */
  ended = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly label: string,
  ) {}

  /** Spawns the server and resolves once it has written its ready line. */
  static start(options: Required<EasyOcrOptions>): Promise<EasyOcrProcess> {
    const label = `${options.python} ${options.script}`;
    return new Promise((resolve, reject) => {
      const child = spawn(options.python, [options.script], {
        env: { ...process.env, PYTHONUNBUFFERED: '1', ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const server = new EasyOcrProcess(child, label);
      const timer = setTimeout(() => {
        reject(new Error(`EasyOCR did not start (${label}): no ready line within ${options.readyTimeoutMs / 1000} s`));
        child.kill('SIGKILL');
      }, options.readyTimeoutMs);
      server.exit = new Promise((exited) => {
        // 'error' when the program cannot be run; 'close' once it has exited and its stderr is read.
        const ended = (reason: string) => {
          if (server.ended) return;
          server.ended = true;
          clearTimeout(timer);
          reject(new Error(`EasyOCR did not start (${label}): ${reason}`));
          server.failPending(new Error(`the EasyOCR process (${label}) ${reason}`));
          exited();
        };
        child.on('error', (error) => ended(`could not be run: ${error.message}`));
        child.on('close', (code, signal) => ended(`exited with ${signal ?? `code ${code}`}${server.stderrTail()}`));
      });
      child.stdin.on('error', () => undefined); // a dead process's pipe: its exit is reported above
      child.stderr.on('data', (chunk: Buffer) => {
        server.stderr = (server.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      createInterface({ input: child.stdout }).on('line', (line) => {
        const reply = parseReply(line);
        if (reply && 'ready' in reply) {
          clearTimeout(timer);
          resolve(server);
        } else if (reply) {
          server.settle(reply);
        }
      });
    });
  }

  /** Sends one image and resolves with EasyOCR's results for it, or rejects with the server's error. */
  read(image: GreyImage, languages: string[]): Promise<EasyOcrResult[]> {
    if (this.ended) return Promise.reject(new Error(`the EasyOCR process (${this.label}) has ended`));
    const id = this.nextId++;
    const results = new Promise<EasyOcrResult[]>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    const request = { id, width: image.width, height: image.height, languages, image: image.data.toString('base64') };
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    return results;
  }

  /** Ends the process (closing its stdin ends its loop; a kill follows if it lingers). */
  async stop(): Promise<void> {
    if (!this.ended) {
      this.failPending(new Error('the easyocr engine was closed'));
      this.child.stdin.end();
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await this.exit;
      clearTimeout(kill);
    }
  }

  private settle(reply: { id: number; results: EasyOcrResult[] } | { id: number; error: string }): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(new Error(`EasyOCR could not read the image: ${reply.error}`));
    else pending.resolve(reply.results);
  }

  private failPending(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private stderrTail(): string {
    const tail = this.stderr.trim();
    return tail ? `: ${tail}` : '';
  }
}

/** A protocol line, or undefined for anything else on stdout. */
function parseReply(line: string): Reply | undefined {
  try {
    const reply = JSON.parse(line) as unknown;
    if (typeof reply !== 'object' || reply === null) return undefined;
    if ('ready' in reply && reply.ready === true) return reply as Reply;
    if ('id' in reply && typeof reply.id === 'number' && ('results' in reply || 'error' in reply))
      return reply as Reply;
  } catch {
    // not JSON: stray output
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
