/** Timestamps on the wire: ISO 8601 in UTC without an offset, as the spec shows (`2026-11-22T08:04:11`). */
export function wireTime(date: Date): string;
export function wireTime(date: Date | null): string | null;
export function wireTime(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 19);
}

/** Text a person typed on one line: no C0 or C1 control characters (tabs and newlines included). */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
