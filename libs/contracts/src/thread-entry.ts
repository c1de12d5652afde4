import { existsSync } from 'node:fs';
import { Worker, type MessagePort } from 'node:worker_threads';
import { join, relative, sep } from 'node:path';

/** The repository root, seen from a module anywhere under its `libs/` (sources; a build's are under `dist/libs/`). */
function repositoryRoot(moduleDir: string): string {
  const libs = moduleDir.lastIndexOf(`${sep}libs${sep}`);
  if (libs < 0) throw new Error(`${moduleDir} is not under the repository's libs/`);
  return moduleDir.slice(0, libs);
}

/**
 * The compiled JavaScript of a worker-thread entry that sits beside `moduleDir`: the file itself
 * in a build, or its copy under `dist/` when the caller runs from its TypeScript sources (the
 * test suites run the API that way; the test command builds first).
 */
export function compiledThreadEntry(moduleDir: string, file: string): string {
  const beside = join(moduleDir, file);
  if (existsSync(beside)) return beside;
  const root = repositoryRoot(moduleDir);
  const built = join(root, 'dist', relative(root, moduleDir), file);
  if (existsSync(built)) return built;
  throw new Error(`the thread entry ${beside} is missing; build the project (npm run build)`);
}

/** A thread stopped at one of its limits (heap or time): the input is too large for it, not broken. */
export class ThreadLimitError extends Error {}

/**
 * Runs the thread entry `entry` (see compiledThreadEntry) on `workerData` and resolves with the
 * one message it posts, `{ ok: true, value }` or `{ ok: false, message }`. Its heap is capped at
 * `memoryMb` and it is stopped after `timeoutMs`, so a pathological input costs that thread,
 * never the calling process, whose event loop goes on serving meanwhile.
 */
export function runInThread<T>(
  entry: string,
  workerData: unknown,
  limits: { memoryMb: number; timeoutMs: number },
): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const thread = new Worker(entry, { workerData, resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb } });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void thread.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new ThreadLimitError(`it takes longer than ${limits.timeoutMs / 1000} s`))),
      limits.timeoutMs,
    );
    thread.once('message', (message: { ok: true; value: T } | { ok: false; message: string }) =>
      settle(() => (message.ok ? resolvePromise(message.value) : reject(new Error(message.message)))),
    );
    thread.once('error', (error) =>
      settle(() =>
        reject(
          (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ThreadLimitError(`it needs more than ${limits.memoryMb} MB of memory`)
            : error,
        ),
      ),
    );
    thread.once('exit', (code) => settle(() => reject(new Error(`the thread exited with code ${code}`))));
  });
}

/** In a thread entry: posts what `work` resolves with, or its error's message, to runInThread. */
export function answerFromThread<T>(port: MessagePort, work: () => Promise<T> | T): void {
  Promise.resolve()
    .then(work)
    .then(
      (value) => port.postMessage({ ok: true, value }),
      (error: unknown) =>
        port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
}
