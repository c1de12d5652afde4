import { SetMetadata } from '@nestjs/common';
import type { JobName } from '@docconv/contracts';

export const JOB_HANDLER = 'docconv:job-handler';

/** Marks a service method as the handler of one job name. Exactly one handler per name. */
export const JobHandler = (name: JobName): MethodDecorator => SetMetadata(JOB_HANDLER, name);
