/** Progress is written at most this often per job (per range of a fanned-out job). */
const PROGRESS_INTERVAL_MS = 1_000;

/** Pages, files and seconds of media done so far, as a job's progress columns hold them. */
export interface ProgressDone {
  pages: number;
  files: number;
  mediaSeconds: number;
}

/**
 * Keeps the latest progress of a job (or of one range of it) and writes it at most once per
 * PROGRESS_INTERVAL_MS, so that a thread reporting every page does not write PostgreSQL for each.
 * Writes run one after the other; a failed write is dropped (the next one carries the count).
 */
export class ProgressWriter {
  private pages = 0;
  private files = 0;
  private seconds = 0;
  private dirty = false;
  private lastWrite = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly write: (done: ProgressDone) => Promise<void>) {}

  update(pages: number, files: number, seconds: number): void {
    this.pages = pages;
    this.files = files;
    this.seconds = Math.floor(seconds);
    this.dirty = true;
    const wait = this.lastWrite + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), wait);
  }

  /** Writes what is pending now, after the write in flight. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return this.writing;
    this.dirty = false;
    this.lastWrite = Date.now();
    const done = { pages: this.pages, files: this.files, mediaSeconds: this.seconds };
    this.writing = this.writing
      .then(() => this.write(done))
      .then(
        () => undefined,
        () => undefined,
      );
    return this.writing;
  }

  /** Waits for the write in flight, if any, and writes nothing more: what is pending is dropped. */
  settled(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty = false;
    return this.writing;
  }

  /** Drops the pending timer (a write in flight still ends). */
  stop(): void {
    clearTimeout(this.timer);
  }
}
