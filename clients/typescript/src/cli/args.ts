import { UsageError } from './terminal';

/**
 * Runs a `parseArgs` call (strict by default), turning its complaints about unknown or
 * incomplete options into a usage error that carries the command's usage.
 */
export function parseCommandLine<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), usage);
  }
}

/** The value of a flag that must be one of `allowed`, or undefined when the flag is absent. */
export function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  usage: string,
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got ${value})`, usage);
}

/** The value of a flag that must be a whole number of at least 1, or undefined when absent. */
export function positiveInteger(value: string | undefined, flag: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} must be a whole number of at least 1`, usage);
  return Number(value);
}

/** Exactly one positional argument, named `what` in the error when it is missing or repeated. */
export function single(positionals: string[], what: string, usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected one ${what}, got ${positionals.length}`, usage);
  return positionals[0];
}
