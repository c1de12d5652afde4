import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotentInterceptor } from './idempotent.interceptor';

/** Documents the header for OpenAPI. */
export const IDEMPOTENCY_HEADER = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: the first response is kept for 24 hours and replayed for a repeat with the same key and ' +
    'the same request (marked Idempotency-Replayed: true); the same key with a different request is 422. A key ' +
    'belongs to the user: any of their API keys and their session share it.',
});

/** An idempotent JSON route (confirm, convert, actions, cancel). */
export const Idempotent = () => applyDecorators(IDEMPOTENCY_HEADER, UseInterceptors(IdempotentInterceptor));
