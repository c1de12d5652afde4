import { HttpStatus } from '@nestjs/common';
import type { ErrorCode } from '@docconv/contracts';

/** The one place where a domain error code becomes an HTTP status. Exhaustive by construction. */
export function statusOf(code: ErrorCode): HttpStatus {
  switch (code) {
    case 'validation_failed':
    case 'malformed_request':
    case 'invalid_state':
    case 'unsupported_format':
    case 'encrypted_document':
    case 'engine_unavailable':
    case 'transcription_unavailable':
    case 'refinement_unavailable':
    case 'invalid_signature':
      return HttpStatus.BAD_REQUEST;
    case 'unauthorized':
    case 'invalid_credentials':
      return HttpStatus.UNAUTHORIZED;
    case 'insufficient_credits':
      return HttpStatus.PAYMENT_REQUIRED;
    case 'forbidden':
    case 'signed_url_invalid':
      return HttpStatus.FORBIDDEN;
    case 'not_found':
    case 'job_not_found':
    case 'key_not_found':
    case 'user_not_found':
      return HttpStatus.NOT_FOUND;
    case 'email_taken':
      return HttpStatus.CONFLICT;
    case 'payload_too_large':
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case 'idempotency_conflict':
      return HttpStatus.UNPROCESSABLE_ENTITY;
    case 'rate_limited':
    case 'daily_quota_exceeded':
      return HttpStatus.TOO_MANY_REQUESTS;
    case 'conversion_failed':
    case 'file_processing_failed':
      return HttpStatus.BAD_GATEWAY;
    case 'service_unavailable':
      return HttpStatus.SERVICE_UNAVAILABLE;
    case 'internal_error':
      return HttpStatus.INTERNAL_SERVER_ERROR;
  }
}

/** Titles are the standard reason phrases, so a person reading a body knows the class at once. */
export function titleOf(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    402: 'Payment Required',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
    413: 'Content Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Content',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
  };
  return titles[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}
