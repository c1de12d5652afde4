import { compiledThreadEntry, runInThread } from '@docconv/contracts';
import type { Document } from '@docconv/model';

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
export { ThreadLimitError as RenderLimitError } from '@docconv/contracts';

/**
 * Renders DOCX, PPTX, HWPX or XLSX Basic in a worker thread: a long document takes seconds of CPU,
 * which must not stall the API's other requests. The thread's heap is capped and it has a
 * deadline, so a pathological document costs that thread, never the API process.
 */
export async function renderInThread(request: RenderRequest): Promise<Buffer> {
  const bytes = await runInThread<Uint8Array>(compiledThreadEntry(__dirname, 'render-thread.js'), request, {
    memoryMb: RENDER_MEMORY_MB,
    timeoutMs: RENDER_TIMEOUT_MS,
  });
  return Buffer.from(bytes);
}
