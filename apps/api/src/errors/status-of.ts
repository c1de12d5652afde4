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
    case 'recent_login_required':
    case 'signed_url_invalid':
      return HttpStatus.FORBIDDEN;
    case 'not_found':
    case 'job_not_found':
    case 'key_not_found':
    case 'session_not_found':
    case 'user_not_found':
      return HttpStatus.NOT_FOUND;
    case 'email_taken':
      return HttpStatus.CONFLICT;
    case 'payload_too_large':
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case 'method_not_allowed':
      return HttpStatus.METHOD_NOT_ALLOWED;
    case 'unsupported_media_type':
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
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

/**
 * The one place where a code becomes its problem's title: a few words saying what happened
 * ("Not enough credits", not "Payment Required"), the same for every problem of that code;
 * the detail says what to do. Exhaustive by construction.
 */
export function titleOf(code: ErrorCode): string {
  switch (code) {
    case 'validation_failed':
      return 'Invalid request';
    case 'malformed_request':
      return 'Malformed request';
    case 'unsupported_media_type':
      return 'Unsupported media type';
    case 'method_not_allowed':
      return 'Method not allowed';
    case 'unauthorized':
      return 'Not authenticated';
    case 'forbidden':
      return 'Not allowed';
    case 'recent_login_required':
      return 'Log in again first';
    case 'not_found':
      return 'Not found';
    case 'job_not_found':
      return 'Job not found';
    case 'key_not_found':
      return 'API key not found';
    case 'session_not_found':
      return 'Session not found';
    case 'user_not_found':
      return 'User not found';
    case 'email_taken':
      return 'Email already registered';
    case 'invalid_credentials':
      return 'Wrong email or password';
    case 'invalid_state':
      return 'Not possible in this state';
    case 'insufficient_credits':
      return 'Not enough credits';
    case 'unsupported_format':
      return 'Unsupported format';
    case 'encrypted_document':
      return 'Encrypted document';
    case 'payload_too_large':
      return 'File too large';
    case 'engine_unavailable':
      return 'Engine unavailable';
    case 'transcription_unavailable':
      return 'Transcription unavailable';
    case 'refinement_unavailable':
      return 'Refinement unavailable';
    case 'rate_limited':
      return 'Too many requests';
    case 'daily_quota_exceeded':
      return 'Daily quota reached';
    case 'idempotency_conflict':
      return 'Idempotency key reused';
    case 'conversion_failed':
      return 'Conversion failed';
    case 'file_processing_failed':
      return 'File processing failed';
    case 'invalid_signature':
      return 'Invalid signature';
    case 'signed_url_invalid':
      return 'Download link invalid or expired';
    case 'service_unavailable':
      return 'Service unavailable';
    case 'internal_error':
      return 'Internal error';
  }
}
