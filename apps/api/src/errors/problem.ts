import type { ErrorCode, FieldError } from '@docconv/contracts';

/** RFC 9457 problem details, as every error response of this API carries them. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  instance?: string;
  error_id?: string;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: ErrorCode): string {
  return `https://docconv.dev/problems/${code.replace(/_/g, '-')}`;
}
