/** Timestamps on the wire: ISO 8601 in UTC without an offset, as the spec shows (`2026-11-22T08:04:11`). */
export function wireTime(date: Date): string;
export function wireTime(date: Date | null): string | null;
export function wireTime(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 19);
}
