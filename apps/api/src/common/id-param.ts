import { ParseUUIDPipe } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@docconv/contracts';

/** A path id that is not a UUID names nothing: answer as "not found", the same as an unknown id. */
export function idParam(code: ErrorCode, what: string): ParseUUIDPipe {
  return new ParseUUIDPipe({ exceptionFactory: () => new DomainError(code, `There is no ${what} with this id.`) });
}
