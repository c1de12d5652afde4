import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
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

function invalid(errors: FieldError[]): DomainError {
  const fields = [...new Set(errors.map((e) => e.field))].join(', ');
  return new DomainError(
    'validation_failed',
    `Some fields are invalid: ${fields}. Fix them and send the request again.`,
    {
      errors,
    },
  );
}

/**
 * The fields of `value` (a body, a query, a parameter) whose text holds a NUL character, which
 * no field of ours means and PostgreSQL cannot store.
 */
export function fieldsWithNul(value: unknown, path = ''): FieldError[] {
  if (typeof value === 'string')
    return value.includes('\0') ? [{ field: path || 'value', message: 'must not contain NUL characters' }] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => fieldsWithNul(item, path ? `${path}.${key}` : key));
}

/**
 * An optional field that may be left out, but that is refused like any other wrong value when
 * sent as `null` (use it where null means nothing; `IsOptional` lets null through).
 */
export const Omittable = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined);

/**
 * DTO validation whose failures are `validation_failed` problems listing each field. Before the
 * DTO's own rules: a body must be a JSON object, and no text anywhere may hold a NUL character.
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom parameter (the caller) is ours, not the client's, and the base pipe passes it as it is.
    if (metadata.type === 'custom') return value;
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new DomainError(
          'validation_failed',
          'The request body must be a JSON object. See /api/docs for its fields.',
          {
            errors: [{ field: 'body', message: 'must be a JSON object' }],
          },
        );
      }
    }
    const nul = fieldsWithNul(value, metadata.type === 'param' ? (metadata.data ?? '') : '');
    if (nul.length > 0) throw invalid(nul);
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    exceptionFactory: (errors) => invalid(flatten(errors)),
  });
}
