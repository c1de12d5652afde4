import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type FieldError } from '@docconv/contracts';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const messages = Object.values(e.constraints ?? {}).map((message) =>
      message.startsWith(`${e.property} `) ? message.slice(e.property.length + 1) : message,
    );
    const own = [...new Set(messages)].map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** DTO validation whose failures are `validation_failed` problems listing each field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      const fields = [...new Set(fieldErrors.map((e) => e.field))].join(', ');
      return new DomainError(
        'validation_failed',
        `Some fields are invalid: ${fields}. Fix them and send the request again.`,
        {
          errors: fieldErrors,
        },
      );
    },
  });
}
