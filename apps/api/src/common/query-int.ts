import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * An optional whole-number query parameter from `min` (to `max`, when given): documented with its
 * default, read from the query string as a number and checked, with one message naming the range
 * whichever check fails. The property's initialiser is the default.
 */
export function QueryInt(options: { min: number; max?: number; default: number; description?: string }) {
  const { min, max } = options;
  const message = `must be a whole number from ${min}${max === undefined ? '' : ` to ${max}`}`;
  return applyDecorators(
    ApiPropertyOptional({
      default: options.default,
      minimum: min,
      ...(max === undefined ? {} : { maximum: max }),
      ...(options.description === undefined ? {} : { description: options.description }),
    }),
    IsOptional(),
    Type(() => Number),
    IsInt({ message }),
    Min(min, { message }),
    ...(max === undefined ? [] : [Max(max, { message })]),
  );
}
