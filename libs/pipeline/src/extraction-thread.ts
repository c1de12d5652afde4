import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { DomainError, type PageFailure } from '@docconv/contracts';
import { structuredResult, type ResultSource } from '@docconv/documents';
import {
  extractToMarkdown,
  NoPageRead,
  loadPdfReader,
  readPdfRange,
  type ExtractInput,
  type Extraction,
  type PageMarkdown,
  type PageRange,
  type PdfPages,
} from '@docconv/reading';
import { assembleDocument, type DocumentPart } from './assemble-document';

/**
 * Messages from the worker to an extraction thread: extract a file (or read the page `range` of a
 * PDF, for a fanned-out parse), or answer whether the job of the file in hand was cancelled.
 */
export type ThreadCommand =
  | { type: 'run'; id: number; input: ExtractInput; range?: PageRange }
  | { type: 'structure'; id: number; markdown: string; sources: ResultSource[] }
  | { type: 'document'; id: number; parts: DocumentPart[] }
  | { type: 'cancelled'; id: number; cancelled: boolean };

/** Messages from an extraction thread about the file `id`. */
export type ThreadMessage =
  | { type: 'ready'; seconds: number }
  | { type: 'progress'; id: number; done: number }
  /** Pages of a PDF read by OCR that settled as it was read (see SettledPages): final, deliverable now. */
  | { type: 'pages'; id: number; pages: PageMarkdown[] }
  /** Asked as pages are read (see readPageByPage): was the job cancelled? */
  | { type: 'ask'; id: number }
  | { type: 'done'; id: number; extraction: Extraction | PdfPages | string; heapMb: number }
  | { type: 'error'; id: number; code?: string; failure?: PageFailure; message: string };

/**
 * Extracts files off the worker's event loop, one at a time, for as long as the thread lives:
 * the readers it loads (pdf.js, fonts, tables) stay loaded for the next file. As it reads the
 * pages of a PDF or image it asks the worker whether the job was cancelled (see readPageByPage);
 * once it was, the pages finished since the last answer of no are dropped and the file ends.
 */
if (parentPort) {
  const port = parentPort;
  const post = (message: ThreadMessage) => port.postMessage(message);
  // pdf.js loads while the thread waits for its first file. A load that fails is reported by the
  // first PDF, which waits on the same load.
  const started = performance.now();
  loadPdfReader().then(
    () => post({ type: 'ready', seconds: (performance.now() - started) / 1000 }),
    () => undefined,
  );
  let current: { id: number; answer?: (cancelled: boolean) => void } | undefined;
  port.on('message', (command: ThreadCommand) => {
    if (command.type === 'cancelled') {
      if (current?.id === command.id) current.answer?.(command.cancelled);
      return;
    }
    const file: NonNullable<typeof current> = { id: command.id };
    current = file;
    const onProgress = (done: number) => post({ type: 'progress', id: file.id, done });
    const shouldStop = () =>
      new Promise<boolean>((resolve) => {
        file.answer = resolve;
        post({ type: 'ask', id: file.id });
      });
    // The structured result and the document of a job's Markdown, as JSON: reading a large result takes seconds.
    const work: Promise<Extraction | PdfPages | string> =
      command.type === 'structure'
        ? Promise.resolve().then(() => JSON.stringify(structuredResult(command.markdown, command.sources)))
        : command.type === 'document'
          ? Promise.resolve().then(() => JSON.stringify(assembleDocument(command.parts) ?? null))
          : command.range
            ? readPdfRange(command.input, command.range, onProgress, shouldStop)
            : extractToMarkdown(command.input, onProgress, shouldStop, (pages) =>
                post({ type: 'pages', id: file.id, pages }),
              );
    work.then(
      (extraction) =>
        post({ type: 'done', id: file.id, extraction, heapMb: getHeapStatistics().used_heap_size / 2 ** 20 }),
      (error: unknown) =>
        post(
          error instanceof DomainError
            ? {
                type: 'error',
                id: file.id,
                code: error.code,
                message: error.message,
                ...(error instanceof NoPageRead ? { failure: error.failure } : {}),
              }
            : { type: 'error', id: file.id, message: error instanceof Error ? error.message : String(error) },
        ),
    );
  });
}
