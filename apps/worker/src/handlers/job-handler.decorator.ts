import { SetMetadata } from '@nestjs/common';
import type { JobName, JobPayload } from '@docconv/contracts';
import type { Job } from 'bullmq';

export const JOB_HANDLER = 'docconv:job-handler';

/** What the handler of job `N` may be: a method taking that job's payload (and the BullMQ job). */
export type HandlerOf<N extends JobName> = (payload: JobPayload<N>, job: Job) => Promise<unknown>;

/**
 * Marks a service method as the handler of one job name. Exactly one handler per name; a
 * method whose parameters do not take that job's payload does not compile.
 */
export const JobHandler =
  <N extends JobName>(name: N) =>
  <M extends HandlerOf<N>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    SetMetadata(JOB_HANDLER, name)(target, key, descriptor);
  };

/** Which attempt at its message a handler is making, as the queue counts them (`made` before this one). */
export function attemptOf(job: Job): { made: number; max: number } {
  return { made: job.attemptsMade, max: job.opts.attempts ?? 1 };
}
