/**
 * The shapes most environment variables share, each declared once: an optional whole number
 * within bounds, and an optional http(s) URL. Environment lists its variables with these.
 */
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';

/** Digits (with an optional minus) become a number; anything else stays as written, to be refused. */
export const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** `true` and `false` in any case become booleans; anything else stays as written, to be refused. */
export const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : value;
};

/**
 * Applies decorators as if stacked in this order above a property (the lowest runs first), so
 * the validation messages come out in the order they always have.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((decorate) => decorate(target, key));
}

/** An optional whole number, at least `min` and, when given, at most `max`. */
export function OptionalInt(min: number, max?: number): PropertyDecorator {
  return stacked(IsOptional(), Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));
}

/** An optional absolute http or https URL; a host without a TLD (a container name) is allowed. */
export function OptionalHttpUrl(): PropertyDecorator {
  return stacked(IsOptional(), IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }));
}
