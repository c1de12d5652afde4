import { compiledThreadEntry, DomainError } from '@docconv/contracts';
import { Piscina } from 'piscina';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import type { ArchiveLimits } from './archive/extract-archive';
import type { IntakeOptions } from './intake';
import type { IntakeInput, IntakeResult } from './intake';
import type { IntakeOutcome, IntakeTask } from './intake-thread';

export interface IntakePoolOptions {
  /** Threads that inspect uploads at once; more uploads wait their turn. */
  threads: number;
  /** Heap of one inspection thread, in MB: a file that needs more is refused, and only that thread dies. */
  memoryMb: number;
  /** How long one upload's inspection may take once it has started. */
  timeoutMs: number;
}

/**
 * Upload inspection (type, archives, pages, images, duration) away from the API's own heap: each
 * upload is inspected in a pool thread with a memory cap and a deadline. A file that would take
 * more (a decompression bomb nobody foresaw, a pathological document) costs that thread, which the
 * pool replaces, and is answered with a 413 naming the file; the API goes on serving.
 */
export class IntakePool {
  private pool?: Piscina;

  constructor(private readonly options: IntakePoolOptions) {}

  async run(
    inputs: IntakeInput[],
    workFolder: string,
    limits: ArchiveLimits,
    options: IntakeOptions,
  ): Promise<IntakeResult> {
    const channel = new MessageChannel();
    const abort = new AbortController();
    let current = inputs[0]?.displayName ?? 'the upload';
    let timer: NodeJS.Timeout | undefined;
    channel.port1.on('message', (name: string) => {
      current = name;
      timer ??= setTimeout(() => abort.abort(), this.options.timeoutMs);
    });
    const task: IntakeTask = { inputs, workFolder, limits, options, progress: channel.port2 };
    try {
      const outcome = (await this.threads().run(task, {
        transferList: [channel.port2],
        signal: abort.signal,
      })) as IntakeOutcome;
      if (!outcome.ok) throw new DomainError(outcome.code, outcome.message, { errors: outcome.errors });
      return outcome.result;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      await nextTurn(); // the last file name the thread posted may still be on its way
      if (abort.signal.aborted) {
        throw new DomainError(
          'payload_too_large',
          `${current} takes longer than ${Math.round(this.options.timeoutMs / 1000)} s to inspect, more than an upload may. If it is a real document, split it into smaller files.`,
        );
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new DomainError(
          'payload_too_large',
          `${current} needs more than ${this.options.memoryMb} MB of memory to inspect, more than an upload may. If it is a real document, split it into smaller files.`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      channel.port1.close();
    }
  }

  async close(): Promise<void> {
    await this.pool?.close({ force: true });
    this.pool = undefined;
  }

  private threads(): Piscina {
    this.pool ??= new Piscina({
      filename: compiledThreadEntry(__dirname, 'intake-thread.js'),
      name: 'runIntakeTask',
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: 32 },
    });
    return this.pool;
  }
}
