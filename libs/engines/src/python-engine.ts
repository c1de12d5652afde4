import type { EngineReport } from '@docconv/contracts';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  EngineCallError,
  EngineProcess,
  type CallOptions,
  type EngineProcessOptions,
  type EngineReady,
} from './engine-process';

/** What the worker reports of one engine in the capabilities and the readiness check. */
export interface EngineState {
  name: string;
  /** `ready`: a process is loaded; `starting`; `failed`: the last start failed (`detail` says why); `stopped`. */
  status: 'starting' | 'ready' | 'failed' | 'stopped';
  /** The engine's version and what it loaded (weights, languages), from its ready line. */
  info: Omit<EngineReady, 'ready'> | null;
  /** How many times a process was started again after one ended. */
  restarts: number;
  /** How many requests were sent again after their process died under them. */
  retries: number;
  detail?: string;
}

export interface PythonEngineOptions extends Omit<EngineProcessOptions, 'readyTimeoutMs'> {
  /** The engine's name in the capabilities (`easyocr`, `faster-whisper`). */
  name: string;
  readyTimeoutMs?: number;
}

export interface DeadlineCallOptions extends CallOptions {
  /** A call not answered by then fails, and the process, in no known state, is killed. */
  timeoutMs?: number;
  /** Once aborted, the call fails as one past its deadline: the process is killed and the next call starts a new one. */
  signal?: AbortSignal;
}

/** Loading torch and a model on a CPU takes seconds to tens of seconds. */
const DEFAULT_READY_TIMEOUT_MS = 180_000;

/**
 * One engine run as a Python process: started at `create`, started again on the next call after
 * it ends (a crash, a kill, a call past its deadline), shared by every call meanwhile.
 */
export class PythonEngine {
  private current?: { ready: Promise<EngineProcess>; process?: EngineProcess; failed?: Error };
  private restarts = 0;
  /** Requests sent again after their process died under them. */
  private retries = 0;
  private closed = false;

  private constructor(private readonly options: Required<PythonEngineOptions>) {}

  /** Starts the process and waits until it is loaded; rejects with the reason when it cannot start. */
  static async create(options: PythonEngineOptions): Promise<PythonEngine> {
    const engine = new PythonEngine({
      ...options,
      env: options.env ?? {},
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    });
    await engine.running();
    return engine;
  }

  /**
   * Sends one request. When the process dies under it (a crash, a kill), the request is sent once
   * more to a new process; an engine's error answer, a missed deadline or a closed engine is final.
   */
  async call<T>(request: Record<string, unknown>, options: DeadlineCallOptions = {}): Promise<T> {
    try {
      return await this.callOnce<T>(request, options);
    } catch (error) {
      if (error instanceof EngineCallError || error instanceof EngineTimeoutError || this.closed) throw error;
      this.retries++;
      return this.callOnce<T>(request, options);
    }
  }

  private async callOnce<T>(request: Record<string, unknown>, options: DeadlineCallOptions): Promise<T> {
    const { timeoutMs, signal } = options;
    if (signal?.aborted) throw new EngineTimeoutError(`${this.options.label} was stopped before the call`);
    const process = await this.running();
    const answer = process.call<T>(request, options);
    if (!timeoutMs && !signal) return answer;
    let timer: NodeJS.Timeout | undefined;
    let stop: (() => void) | undefined;
    const late = new Promise<never>((_, reject) => {
      const give = (message: string) => {
        const error = new EngineTimeoutError(message);
        reject(error); // first, so that the call fails with this error and not with the kill's
        void process.kill(error.message);
      };
      if (timeoutMs)
        timer = setTimeout(() => give(`${this.options.label} gave no answer within ${timeoutMs / 1000} s`), timeoutMs);
      if (signal) {
        stop = () => give(`${this.options.label} was stopped while reading`);
        signal.addEventListener('abort', stop, { once: true });
      }
    });
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
      if (stop) signal?.removeEventListener('abort', stop);
    }
  }

  state(): EngineState {
    const base = { name: this.options.name, restarts: this.restarts, retries: this.retries };
    const current = this.current;
    if (this.closed) return { ...base, status: 'stopped', info: null };
    if (current?.failed) return { ...base, status: 'failed', info: null, detail: current.failed.message };
    if (!current?.process) return { ...base, status: 'starting', info: null };
    // A process that ended is started again by the next call: the engine is still usable.
    return { ...base, status: 'ready', info: withoutReady(current.process.info) };
  }

  /** The running process's id (for tests that end it the hard way). */
  async pid(): Promise<number | undefined> {
    return (await this.running()).pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    const process = await current?.ready.catch(() => undefined);
    await process?.stop();
  }

  private running(): Promise<EngineProcess> {
    if (this.closed) return Promise.reject(new Error(`${this.options.label} was closed`));
    const current = this.current;
    if (current && !current.failed && !current.process?.ended && !current.process?.retired) return current.ready;
    if (current) this.restarts++;
    const ready = EngineProcess.start(this.options);
    const next: NonNullable<PythonEngine['current']> = { ready };
    ready.then(
      (process) => (next.process = process),
      (error: Error) => (next.failed = error),
    );
    this.current = next;
    return ready;
  }
}

/** An engine's state as the worker reports it (capabilities, readiness). */
export function engineReport(state: EngineState): EngineReport {
  const info = state.info ?? {};
  const model = info.model as { name?: string } | undefined;
  const weights = Array.isArray(info.weights) ? (info.weights as string[]) : model?.name ? [model.name] : [];
  return {
    name: state.name,
    status: state.status,
    version: typeof info.version === 'string' ? info.version : null,
    languages: Array.isArray(info.languages) ? (info.languages as string[]) : [],
    weights,
    restarts: state.restarts,
    ...(state.detail ? { detail: state.detail } : {}),
  };
}

/** A call that got no answer by its deadline; its process was killed. */
export class EngineTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineTimeoutError';
  }
}

function withoutReady(info: EngineReady): Omit<EngineReady, 'ready'> {
  return Object.fromEntries(Object.entries(info).filter(([key]) => key !== 'ready'));
}

/**
 * A file shipped beside the sources (an engine's server script), found by walking up from
 * `from`, so that it is the same from the TypeScript sources and from `dist/`.
 */
export function findAbove(from: string, relative: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, relative);
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) throw new Error(`${relative} was not found above ${from}`);
  }
}
