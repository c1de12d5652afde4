/**
 * Stable, machine-readable error codes. Every error a client can see carries one of these
 * in the `code` field of its problem+json body. Adding a code means adding its HTTP status
 * and its title in the API's exhaustive mappings; removing one is a breaking change.
 */
export const ERROR_CODES = [
  'validation_failed',
  'malformed_request',
  'unsupported_media_type',
  'method_not_allowed',
  'unauthorized',
  'forbidden',
  'recent_login_required',
  'not_found',
  'job_not_found',
  'key_not_found',
  'session_not_found',
  'user_not_found',
  'email_taken',
  'invalid_credentials',
  'invalid_state',
  'insufficient_credits',
  'unsupported_format',
  'encrypted_document',
  'payload_too_large',
  'engine_unavailable',
  'transcription_unavailable',
  'refinement_unavailable',
  'rate_limited',
  'daily_quota_exceeded',
  'idempotency_conflict',
  'conversion_failed',
  'file_processing_failed',
  'invalid_signature',
  'signed_url_invalid',
  'service_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field-level validation failure, listed in the `errors` member of a problem body. */
export interface FieldError {
  field: string;
  message: string;
}
