import type { MessagePort } from 'node:worker_threads';
import { DomainError, type ErrorCode, type FieldError } from '@docconv/contracts';
import type { ArchiveLimits } from './archive/extract-archive';
import { intake, type IntakeInput, type IntakeOptions, type IntakeResult } from './intake';

/** One upload's inspection, as the intake pool sends it to a thread. */
export interface IntakeTask {
  inputs: IntakeInput[];
  workFolder: string;
  limits: ArchiveLimits;
  options: IntakeOptions;
  /** The thread posts each file's display path here before it reads the file. */
  progress: MessagePort;
}

/** What the thread answers: the files, or the refusal (a DomainError does not survive the crossing as itself). */
export type IntakeOutcome =
  { ok: true; result: IntakeResult } | { ok: false; code: ErrorCode; message: string; errors?: FieldError[] };

/** Runs `intake` inside a pool thread; a refusal comes back as data, anything else as the thread's error. */
export async function runIntakeTask(task: IntakeTask): Promise<IntakeOutcome> {
  try {
    const result = await intake(task.inputs, task.workFolder, task.limits, task.options, (name) =>
      task.progress.postMessage(name),
    );
    return { ok: true, result };
  } catch (error) {
    if (error instanceof DomainError) {
      return { ok: false, code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
    }
    throw error;
  } finally {
    task.progress.close();
  }
}
