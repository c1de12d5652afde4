import type { JobEntity } from '@docconv/db';
import type { DeliveredPage, JobLifecycle } from '@docconv/lifecycle';
import type { PageMarkdown } from '@docconv/reading';
import { pageEventPath, pageEventsPrefix, type Storage } from '@docconv/storage';
import { writeMarkdown, type Block } from '@docconv/model';
import { fileHeading, PART_SEPARATOR } from './assemble-document';

/** What is known of a file while it is read: its number in the job and whether a heading names it. */
export interface PartOf {
  index: number;
  file: string;
  /** Under a `## <file>` heading (a job of several files). */
  headed: boolean;
}

/**
 * A job's result delivered as it is made: each page of a file read page by page once it is final
 * (pages a PDF read by OCR settles as it goes, the others when their file is laid out), a file
 * without pages once it is read. Each is stored under the job's results, counted on the job row
 * and announced on its event channel, one after the other; joined in order they are the job's
 * Markdown (its parts joined by PART_SEPARATOR), byte for byte.
 */
export class PageDelivery {
  private seq = 0;
  /** The job's Markdown delivered so far, per file index (what its part starts with). */
  private readonly delivered = new Map<number, string>();
  private readonly pages = new Map<number, Set<number>>();
  /** Deliveries run one after the other, in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly job: JobEntity,
    private readonly storage: Storage,
    private readonly lifecycle: JobLifecycle,
  ) {}

  /** Starts the attempt's deliveries from nothing: a retry delivers its own pages again. */
  begin(): Promise<void> {
    return this.then(async () => {
      await this.storage.deletePrefix(pageEventsPrefix(this.job.id, this.job.retryCount)).catch(() => undefined);
      await this.lifecycle.pageEvents(this.job.id, 0);
    });
  }

  /** Pages of a file that settled while it was read: final, delivered now. */
  settled(part: PartOf, pages: PageMarkdown[]): void {
    // A failure stays in the queue: the file's end (fileDone) then fails with it, and so the job.
    this.then(async () => {
      for (const page of pages) await this.deliver(part, page.page, this.own(part, page), page.blocks);
    }).catch(() => undefined);
  }

  /**
   * A file's part of the job's Markdown, now known: its pages not delivered yet (each page's own
   * stretch, the last taking what is left), or the part whole for a file without pages.
   */
  fileDone(part: PartOf, markdown: string, pages: PageMarkdown[] | undefined): Promise<void> {
    return this.then(async () => {
      const full = (part.index > 0 ? PART_SEPARATOR : '') + markdown;
      const sent = this.delivered.get(part.index) ?? '';
      let rest = full.startsWith(sent) ? full.slice(sent.length) : full;
      const left = (pages ?? []).filter((page) => !this.pages.get(part.index)?.has(page.page));
      if (left.length === 0) {
        if (rest !== '' || sent === '') await this.deliver(part, null, rest, []);
        return;
      }
      for (const [i, page] of left.entries()) {
        const own = this.own(part, page);
        // The last page takes what is left; a page whose stretch is not next in the part takes it all.
        const text = i === left.length - 1 || !rest.startsWith(own) ? rest : own;
        await this.deliver(part, page.page, text, page.blocks);
        rest = rest.slice(text.length);
      }
    });
  }

  /** Waits for every delivery asked for so far. */
  settledAll(): Promise<void> {
    return this.queue;
  }

  /** What a file's first delivery opens with: the separator from the file before, and the heading naming it. */
  private opening(part: PartOf): string {
    if (this.delivered.has(part.index)) return '';
    const separator = part.index > 0 ? PART_SEPARATOR : '';
    const heading = part.headed ? `${writeMarkdown({ version: 1, blocks: [fileHeading(part.file)] })}\n` : '';
    return separator + heading;
  }

  /**
   * A page's stretch as the job's Markdown holds it: after the file's opening when it is the file's
   * first, trimmed at the start in a headed part (which holds its file's Markdown trimmed).
   */
  private own(part: PartOf, page: PageMarkdown): string {
    const first = !this.delivered.has(part.index);
    return this.opening(part) + (part.headed && first ? page.markdown.trimStart() : page.markdown);
  }

  private async deliver(part: PartOf, page: number | null, markdown: string, blocks: Block[]): Promise<void> {
    const event: DeliveredPage = {
      seq: ++this.seq,
      retry: this.job.retryCount,
      file: part.file,
      page,
      markdown,
      blocks,
    };
    await this.storage.put(pageEventPath(this.job.id, event.retry, event.seq), Buffer.from(JSON.stringify(event)));
    this.delivered.set(part.index, (this.delivered.get(part.index) ?? '') + markdown);
    if (page !== null) this.pages.set(part.index, (this.pages.get(part.index) ?? new Set()).add(page));
    await this.lifecycle.pageEvents(this.job.id, event.seq, event);
  }

  private then(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work);
    return this.queue;
  }
}
