import { DomainError } from '@docconv/contracts';

export function jobNotFound(): DomainError {
  return new DomainError(
    'job_not_found',
    'There is no job with this id among yours. List your jobs with GET /api/v1/jobs.',
  );
}

export function invalidState(detail: string): DomainError {
  return new DomainError('invalid_state', detail);
}
