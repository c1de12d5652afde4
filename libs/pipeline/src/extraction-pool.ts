import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { compiledThreadEntry, DomainError, type ErrorCode } from '@docconv/contracts';
import type { ResultSource } from '@docconv/documents';
import {
  NoPageRead,
  type ExtractInput,
  type Extraction,
  type PageMarkdown,
  type PageRange,
  type PdfPages,
} from '@docconv/reading';
import { Worker } from 'node:worker_threads';
import type { DocumentPart } from './assemble-document';
import type { ThreadCommand, ThreadMessage } from './extraction-thread';

/**
 * Whether the job's owner has cancelled it, asked by a thread as it reads pages: a page is
 * delivered only when an answer asked after it finished is no (see readPageByPage).
 */
export type CancelCheck = () => Promise<boolean>;

/** Never cancelled: a structured result, or pages whose delivery was decided already. */
export const NEVER_CANCELLED: CancelCheck = () => Promise.resolve(false);

/** One file in a thread: how its messages are answered. */
interface Running {
  id: number;
  displayName: string;
  onProgress: (done: number) => void;
  /** Pages of the file settled as it was read (a PDF read by OCR), deliverable at once. */
  onPages?: (pages: PageMarkdown[]) => void;
  cancelled: CancelCheck;
  resolve: (extraction: Extraction | PdfPages | string) => void;
  reject: (error: Error) => void;
  /** A file read (not a structured result): counted and weighed for the thread's replacement. */
  file: boolean;
}

/**
 * A thread of the pool, the file it is extracting (if any), how many it has extracted and its heap
 * in use after the last one.
 */
interface Slot {
  thread: Worker;
  running?: Running;
  files: number;
  heapMb: number;
}

/**
 * A thread is replaced once the heap it still uses after a file passes this share of its cap
 * (WORKER_THREAD_MEMORY_MB), so that whatever a reader leaves behind cannot pile up until a file
 * runs out of memory; garbage not yet collected counts, so a thread may go early, never late.
 */
const HEAP_SHARE_PER_THREAD = 0.25;
/**
 * And after this many files in any case. A thread's code warms over its first few dozen files (a
 * new one read the 25 evalset text PDFs in 4.7 s, then in 2.6–3.2 s each time over 300 files, its
 * heap flat at 36–38 MB): replacing it every 200 files cost some 8 % of a warm thread's time.
 */
const FILES_PER_THREAD = 5_000;

/**
 * Extraction threads kept warm for the worker's lifetime, as many as it runs jobs at once, started
 * with it: a file goes to an idle thread, whose readers are already loaded (a new thread per file
 * spent about 0.4 s loading pdf.js alone). A file that runs past its deadline, or needs more than
 * `WORKER_THREAD_MEMORY_MB` of heap, costs its thread, which is replaced; the worker goes on.
 */
@Injectable()
export class ExtractionPool implements OnApplicationBootstrap, OnModuleDestroy {
  /** Every live thread; `idle` are those without a file. */
  private readonly alive = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private nextId = 1;
  /** Set once the worker shuts down: no thread is started any more. */
  private closing = false;
  private readonly logger = new Logger(ExtractionPool.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Extracts one file. Resolves with the Markdown and its page report; rejects with the
   * thread's DomainError (a problem with the file) or a plain Error (a fault of ours, worth
   * retrying). Once `cancelled` says yes, a PDF or image ends with the pages delivered before
   * (`stopped`).
   */
  run(
    input: ExtractInput,
    onProgress: (done: number) => void,
    deadline: number,
    cancelled: CancelCheck,
    onPages?: (pages: PageMarkdown[]) => void,
  ): Promise<Extraction> {
    return this.extract(input, undefined, onProgress, deadline, cancelled, onPages) as Promise<Extraction>;
  }

  /** Reads the pages `range` of a PDF, as `run` reads a file, for a later `assemblePdf`. */
  readRange(
    input: ExtractInput,
    range: PageRange,
    onProgress: (done: number) => void,
    deadline: number,
    cancelled: CancelCheck,
  ): Promise<PdfPages> {
    return this.extract(input, range, onProgress, deadline, cancelled) as Promise<PdfPages>;
  }

  /**
   * The structured result of a job's Markdown (`structuredResult`) as JSON, made in a thread: a
   * result of many megabytes takes seconds, which the worker's event loop (heartbeats, queue
   * locks) must not wait for.
   */
  structure(markdown: string, sources: ResultSource[], deadline: number): Promise<string> {
    const run = (id: number): ThreadCommand => ({ type: 'structure', id, markdown, sources });
    return this.inThread(
      run,
      'the structured result',
      () => undefined,
      deadline,
      NEVER_CANCELLED,
      false,
    ) as Promise<string>;
  }

  /**
   * The job's document (`assembleDocument` of its parts) as JSON, made in a thread as the
   * structured result is: reading back the Markdown of a file whose reader builds no document
   * takes seconds for a large one. Undefined when the parts' documents do not write the Markdown.
   */
  async document(parts: DocumentPart[], deadline: number): Promise<string | undefined> {
    const run = (id: number): ThreadCommand => ({ type: 'document', id, parts });
    const json = (await this.inThread(
      run,
      'the document',
      () => undefined,
      deadline,
      NEVER_CANCELLED,
      false,
    )) as string;
    return json === 'null' ? undefined : json;
  }

  private extract(
    input: ExtractInput,
    range: PageRange | undefined,
    onProgress: (done: number) => void,
    deadline: number,
    cancelled: CancelCheck,
    onPages?: (pages: PageMarkdown[]) => void,
  ): Promise<Extraction | PdfPages> {
    const run = (id: number): ThreadCommand => ({ type: 'run', id, input, range });
    return this.inThread(run, input.displayName, onProgress, deadline, cancelled, true, onPages) as Promise<
      Extraction | PdfPages
    >;
  }

  private async inThread(
    command: (id: number) => ThreadCommand,
    displayName: string,
    onProgress: (done: number) => void,
    deadline: number,
    cancelled: CancelCheck,
    file = true,
    onPages?: (pages: PageMarkdown[]) => void,
  ): Promise<Extraction | PdfPages | string> {
    const slot = await this.acquire();
    const id = this.nextId++;
    const send = (command: ThreadCommand) => slot.thread.postMessage(command);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<Extraction | PdfPages | string>((resolve, reject) => {
        slot.running = { id, displayName, onProgress, onPages, cancelled, resolve, reject, file };
        timer = setTimeout(
          () => {
            reject(
              new DomainError(
                'file_processing_failed',
                `${displayName} took longer than this job may run. Ask for a refund, or split the file.`,
              ),
            );
            this.discard(slot);
          },
          Math.max(0, deadline - Date.now()),
        );
        send(command(id));
      });
    } finally {
      clearTimeout(timer);
      slot.running = undefined;
      this.release(slot, file);
    }
  }

  /** Every thread starts with the worker, its readers loading, so that no job waits for them. */
  onApplicationBootstrap(): void {
    this.fill();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    const threads = this.idle.splice(0).map((slot) => slot.thread.terminate());
    await Promise.all(threads);
  }

  private async acquire(): Promise<Slot> {
    const slot = this.idle.pop();
    if (slot) {
      slot.thread.ref();
      return slot;
    }
    if (this.alive.size < this.config.worker.concurrency) return this.spawn();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * Back to the idle threads, or to the next file waiting; a thread that died, or that has done
   * its share of files, is not kept (a structured result is not a file: its thread is weighed
   * after its next file).
   */
  private release(slot: Slot, file: boolean): void {
    if (!this.alive.has(slot)) return;
    const heapCapMb = this.config.worker.threadMemoryMb * HEAP_SHARE_PER_THREAD;
    if (file && (++slot.files >= FILES_PER_THREAD || slot.heapMb > heapCapMb)) return this.discard(slot);
    const next = this.waiting.shift();
    if (next) return next(slot);
    slot.thread.unref();
    this.idle.push(slot);
  }

  private spawn(): Slot {
    const entry = compiledThreadEntry(__dirname, 'extraction-thread.js');
    const memoryMb = this.config.worker.threadMemoryMb;
    const slot: Slot = {
      thread: new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } }),
      files: 0,
      heapMb: 0,
    };
    this.alive.add(slot);
    slot.thread.on('message', (message: ThreadMessage) => {
      if (message.type === 'ready') {
        this.logger.log(`Extraction thread ready, pdf.js loaded in ${message.seconds.toFixed(2)} s`);
        return;
      }
      const running = slot.running;
      if (!running || running.id !== message.id) return;
      if (message.type === 'progress') running.onProgress(message.done);
      else if (message.type === 'pages') running.onPages?.(message.pages);
      else if (message.type === 'ask') this.answer(slot, running);
      else if (message.type === 'done') {
        if (running.file) slot.heapMb = message.heapMb;
        running.resolve(message.extraction);
      } else {
        running.reject(
          message.failure
            ? new NoPageRead(message.failure, message.message)
            : message.code
              ? new DomainError(message.code as ErrorCode, message.message)
              : new Error(message.message),
        );
      }
    });
    slot.thread.on('error', (error) => {
      if (!slot.running) return;
      slot.running.reject(
        (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new DomainError(
              'file_processing_failed',
              `${slot.running.displayName} needs more than ${memoryMb} MB of memory to convert, more than a job may use. Ask for a refund, or split the file.`,
            )
          : error,
      );
    });
    slot.thread.on('exit', (code) => {
      slot.running?.reject(new Error(`extraction thread exited with code ${code}`));
      this.forget(slot);
    });
    return slot;
  }

  /**
   * Tells the thread whether the job of its file was cancelled. When that cannot be known (the
   * database is away), the file fails as a fault of ours, to be retried: a page is never delivered
   * on a guess.
   */
  private answer(slot: Slot, running: Running): void {
    running.cancelled().then(
      (cancelled) => {
        if (slot.running === running) slot.thread.postMessage({ type: 'cancelled', id: running.id, cancelled });
      },
      (error: unknown) => {
        if (slot.running !== running) return;
        running.reject(error instanceof Error ? error : new Error(String(error)));
        this.discard(slot);
      },
    );
  }

  /**
   * Ends a thread whose file ran too long or that has done its share; its replacement starts at
   * once, warming while no file waits for it.
   */
  private discard(slot: Slot): void {
    this.forget(slot);
    void slot.thread.terminate();
    this.fill();
  }

  /** Idle threads started until the pool has one per slot (none once the worker shuts down). */
  private fill(): void {
    while (!this.closing && this.alive.size < this.config.worker.concurrency) {
      const slot = this.spawn();
      slot.thread.unref();
      this.idle.push(slot);
    }
  }

  private forget(slot: Slot): void {
    if (!this.alive.delete(slot)) return;
    const index = this.idle.indexOf(slot);
    if (index >= 0) this.idle.splice(index, 1);
    // A file waiting for a thread gets a new one in place of the one that died.
    const next = this.waiting.shift();
    if (next) next(this.spawn());
  }
}
