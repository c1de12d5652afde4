import { compiledThreadEntry } from '@docconv/contracts';
import type { Document } from '@docconv/model';
import { Worker } from 'node:worker_threads';

/**
 * What to render: the document model, or the Markdown of a job stored without one (the thread reads it into
 * the model with `readMarkdown`, since reading a long Markdown takes CPU too).
 */
export type RenderRequest = {
  format: 'docx' | 'pptx' | 'hwpx' | 'xlsx_basic';
  title: string;
  /** The pictures the document links, by the link target as written; the formats that embed pictures use them. */
  images?: Record<string, Uint8Array>;
} & ({ document: Document } | { markdown: string });

/** The heap one render may use, and how long it may take: past either, the thread is stopped. */
export const RENDER_MEMORY_MB = 1024;
export const RENDER_TIMEOUT_MS = 120_000;

/** A render stopped at one of its limits: the document is too large to render, not broken. */
export class RenderLimitError extends Error {}

/**
 * Renders DOCX, PPTX, HWPX or XLSX Basic in a worker thread: a long document takes seconds of CPU,
 * which must not stall the API's other requests. The thread's heap is capped and it has a
 * deadline, so a pathological document costs that thread, never the API process.
 */
export function renderInThread(request: RenderRequest): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const thread = new Worker(compiledThreadEntry(__dirname, 'render-thread.js'), {
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: RENDER_MEMORY_MB },
    });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void thread.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new RenderLimitError(`it takes longer than ${RENDER_TIMEOUT_MS / 1000} s`))),
      RENDER_TIMEOUT_MS,
    );
    thread.once('message', (message: { ok: true; bytes: Uint8Array } | { ok: false; message: string }) =>
      settle(() => (message.ok ? resolvePromise(Buffer.from(message.bytes)) : reject(new Error(message.message)))),
    );
    thread.once('error', (error) =>
      settle(() =>
        reject(
          (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new RenderLimitError(`it needs more than ${RENDER_MEMORY_MB} MB of memory`)
            : error,
        ),
      ),
    );
    thread.once('exit', (code) => settle(() => reject(new Error(`the render thread exited with code ${code}`))));
  });
}
