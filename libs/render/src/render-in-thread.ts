import { compiledThreadEntry } from '@docconv/contracts';
import { Worker } from 'node:worker_threads';

export interface RenderRequest {
  format: 'docx' | 'pptx' | 'xlsx_basic';
  markdown: string;
  title: string;
}

/**
 * Renders DOCX, PPTX or XLSX Basic in a worker thread: a long document takes seconds of CPU,
 * which must not stall the API's other requests.
 */
export function renderInThread(request: RenderRequest): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const thread = new Worker(compiledThreadEntry(__dirname, 'render-thread.js'), { workerData: request });
    let settled = false;
    thread.once('message', (message: { ok: true; bytes: Uint8Array } | { ok: false; message: string }) => {
      settled = true;
      if (message.ok) resolvePromise(Buffer.from(message.bytes));
      else reject(new Error(message.message));
      void thread.terminate();
    });
    thread.once('error', (error) => {
      settled = true;
      reject(error);
    });
    thread.once('exit', (code) => {
      if (!settled) reject(new Error(`the render thread exited with code ${code}`));
    });
  });
}
