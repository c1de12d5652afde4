import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL `bigint` arrives as a string; our integers (points, counts) stay far below
 * 2^53, so they are read back as numbers. A value outside the safe range is an error,
 * never a silent rounding.
 */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => {
    if (value === null) return null;
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`bigint ${value} is outside the safe integer range`);
    return n;
  },
};
