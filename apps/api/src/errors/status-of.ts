import { HttpStatus } from '@nestjs/common';
import type { ErrorCode } from '@docconv/contracts';

/**
 * The one place where a domain error code becomes HTTP: its status, and its problem's title, a
 * few words saying what happened ("Not enough credits", not "Payment Required"), the same for
 * every problem of that code; the detail says what to do. One row per code, and a code without
 * its row does not compile.
 */
const PROBLEMS: Record<ErrorCode, { status: HttpStatus; title: string }> = {
  validation_failed: { status: HttpStatus.BAD_REQUEST, title: 'Invalid request' },
  malformed_request: { status: HttpStatus.BAD_REQUEST, title: 'Malformed request' },
  invalid_state: { status: HttpStatus.BAD_REQUEST, title: 'Not possible in this state' },
  unsupported_format: { status: HttpStatus.BAD_REQUEST, title: 'Unsupported format' },
  encrypted_document: { status: HttpStatus.BAD_REQUEST, title: 'Encrypted document' },
  engine_unavailable: { status: HttpStatus.BAD_REQUEST, title: 'Engine unavailable' },
  transcription_unavailable: { status: HttpStatus.BAD_REQUEST, title: 'Transcription unavailable' },
  refinement_unavailable: { status: HttpStatus.BAD_REQUEST, title: 'Refinement unavailable' },
  invalid_signature: { status: HttpStatus.BAD_REQUEST, title: 'Invalid signature' },
  unauthorized: { status: HttpStatus.UNAUTHORIZED, title: 'Not authenticated' },
  invalid_credentials: { status: HttpStatus.UNAUTHORIZED, title: 'Wrong email or password' },
  insufficient_credits: { status: HttpStatus.PAYMENT_REQUIRED, title: 'Not enough credits' },
  forbidden: { status: HttpStatus.FORBIDDEN, title: 'Not allowed' },
  recent_login_required: { status: HttpStatus.FORBIDDEN, title: 'Log in again first' },
  signed_url_invalid: { status: HttpStatus.FORBIDDEN, title: 'Download link invalid or expired' },
  not_found: { status: HttpStatus.NOT_FOUND, title: 'Not found' },
  job_not_found: { status: HttpStatus.NOT_FOUND, title: 'Job not found' },
  key_not_found: { status: HttpStatus.NOT_FOUND, title: 'API key not found' },
  session_not_found: { status: HttpStatus.NOT_FOUND, title: 'Session not found' },
  user_not_found: { status: HttpStatus.NOT_FOUND, title: 'User not found' },
  email_taken: { status: HttpStatus.CONFLICT, title: 'Email already registered' },
  payload_too_large: { status: HttpStatus.PAYLOAD_TOO_LARGE, title: 'File too large' },
  method_not_allowed: { status: HttpStatus.METHOD_NOT_ALLOWED, title: 'Method not allowed' },
  unsupported_media_type: { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, title: 'Unsupported media type' },
  idempotency_conflict: { status: HttpStatus.UNPROCESSABLE_ENTITY, title: 'Idempotency key reused' },
  rate_limited: { status: HttpStatus.TOO_MANY_REQUESTS, title: 'Too many requests' },
  daily_quota_exceeded: { status: HttpStatus.TOO_MANY_REQUESTS, title: 'Daily quota reached' },
  conversion_failed: { status: HttpStatus.BAD_GATEWAY, title: 'Conversion failed' },
  file_processing_failed: { status: HttpStatus.BAD_GATEWAY, title: 'File processing failed' },
  service_unavailable: { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Service unavailable' },
  internal_error: { status: HttpStatus.INTERNAL_SERVER_ERROR, title: 'Internal error' },
};

/** The HTTP status of a domain error code. */
export function statusOf(code: ErrorCode): HttpStatus {
  return PROBLEMS[code].status;
}

/** The title of a domain error code's problem. */
export function titleOf(code: ErrorCode): string {
  return PROBLEMS[code].title;
}
