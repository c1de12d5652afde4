import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The one protocol every Python engine of the worker speaks (EasyOCR, speech), JSON lines over
 * stdin and stdout:
 *
 * - once loaded, the process writes `{"ready": true, "engine": "<name>", "version": "<x.y>", …}`
 *   (more fields describe its weights and languages), or exits non-zero with a message on stderr;
 * - then each request is one line `{"id": 1, …}`; the process answers it with any number of
 *   `{"id": 1, "progress": 0.4}` lines, then one `{"id": 1, "result": …}` or
 *   `{"id": 1, "error": "message"}`. Replies may come in another order than the requests.
 *
 * Whatever else a process prints belongs on stderr; a line on stdout that is not a reply is
 * ignored.
 */
export interface EngineReady {
  ready: true;
  engine: string;
  version: string;
  [detail: string]: unknown;
}

export interface EngineProcessOptions {
  /** The Python that runs the script (the engines' venv). */
  python: string;
  /** The engine's server script. */
  script: string;
  /** Variables added to the process's environment. */
  env?: Record<string, string>;
  /** How long loading may take before the process counts as failed. */
  readyTimeoutMs: number;
  /** The engine's name in messages ("EasyOCR", "the speech engine"). */
  label: string;
}

export interface CallOptions {
  /** Called with each progress reply, 0…1. */
  onProgress?: (fraction: number) => void;
}

/** How much of the process's stderr to quote when it fails. */
const STDERR_TAIL = 2_000;

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  onProgress?: (fraction: number) => void;
}

/** One running engine process and the requests it has not answered yet. */
export class EngineProcess {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  private exit = Promise.resolve();
  /** Whether the process has exited. */
  ended = false;
  /** Whether the process is being stopped or killed: it takes no more requests. */
  retired = false;
  /** What the process said of itself in its ready line. */
  info!: EngineReady;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly label: string,
  ) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Spawns the script and resolves once it has written its ready line. */
  static start(options: EngineProcessOptions): Promise<EngineProcess> {
    const { label } = options;
    return new Promise((resolve, reject) => {
      const child = spawn(options.python, [options.script], {
        env: { ...process.env, PYTHONUNBUFFERED: '1', ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const server = new EngineProcess(child, label);
      const timer = setTimeout(() => {
        reject(new Error(`${label} did not start: no ready line within ${options.readyTimeoutMs / 1000} s`));
        child.kill('SIGKILL');
      }, options.readyTimeoutMs);
      server.exit = new Promise((exited) => {
        // 'error' when the program cannot be run; 'close' once it has exited and its stderr is read.
        const ended = (reason: string) => {
          if (server.ended) return;
          server.ended = true;
          clearTimeout(timer);
          reject(new Error(`${label} did not start: ${reason}`));
          server.failPending(new Error(`the ${label} process ${reason}`));
          exited();
        };
        child.on('error', (error) => ended(`could not be run (${options.python}): ${error.message}`));
        child.on('close', (code, signal) => ended(`exited with ${signal ?? `code ${code}`}${server.stderrTail()}`));
      });
      child.stdin.on('error', () => undefined); // a dead process's pipe: its exit is reported above
      child.stderr.on('data', (chunk: Buffer) => {
        server.stderr = (server.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      createInterface({ input: child.stdout }).on('line', (line) => {
        const reply = parseLine(line);
        if (!reply) return;
        if (reply.ready === true) {
          server.info = reply as EngineReady;
          clearTimeout(timer);
          resolve(server);
        } else {
          server.receive(reply);
        }
      });
    });
  }

  /** Sends one request and resolves with its result, or rejects with the engine's error. */
  call<T>(request: Record<string, unknown>, options: CallOptions = {}): Promise<T> {
    if (this.ended || this.retired) return Promise.reject(new Error(`the ${this.label} process has ended`));
    const id = this.nextId++;
    const result = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve, reject, onProgress: options.onProgress }),
    );
    this.child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
    return result;
  }

  /** Ends the process: closing its stdin ends its loop; a kill follows if it lingers. */
  async stop(reason = `the ${this.label} process was stopped`): Promise<void> {
    if (this.ended) return;
    this.retired = true;
    this.failPending(new Error(reason));
    this.child.stdin.end();
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exit;
    clearTimeout(kill);
  }

  /** Kills the process at once (a call past its deadline leaves it in no known state). */
  async kill(reason: string): Promise<void> {
    if (this.ended) return;
    this.retired = true;
    this.failPending(new Error(reason));
    this.child.kill('SIGKILL');
    await this.exit;
  }

  private receive(reply: Record<string, unknown>): void {
    const pending = typeof reply.id === 'number' ? this.pending.get(reply.id) : undefined;
    if (!pending) return;
    if (typeof reply.progress === 'number') {
      pending.onProgress?.(reply.progress);
      return;
    }
    this.pending.delete(reply.id as number);
    if ('error' in reply) pending.reject(new EngineCallError(this.label, String(reply.error)));
    else pending.resolve(reply.result);
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

/** The engine answered a request with an error: the input, not the process, was at fault. */
export class EngineCallError extends Error {
  constructor(label: string, message: string) {
    super(`${label}: ${message}`);
    this.name = 'EngineCallError';
  }
}

/** A protocol line, or undefined for anything else on stdout. */
function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // not JSON: stray output
  }
}
