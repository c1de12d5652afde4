import { ArgumentsHost, Catch, HttpException, HttpStatus, Logger, type ExceptionFilter } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@docconv/contracts';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemType, type Problem } from './problem';
import { statusOf, titleOf } from './status-of';

/** Codes for errors raised by the framework itself (routing, body parsing), by status. */
function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'malformed_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'malformed_request';
  }
}

/** Readable details for what the HTTP server itself refuses, by its error code. */
const SERVER_DETAIL: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than 1 MB. Send a smaller body.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH:
    'The request body does not match its Content-Length. Let your HTTP client set the header.',
  FST_ERR_BAD_URL: 'The request URL is malformed. Encode it and send it again.',
};

/**
 * Turns every error into RFC 9457 problem+json. Domain errors keep their code and message;
 * framework errors get a code from their status; anything else is a 500 whose details stay
 * in the log under an error id that the client also receives.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = this.toProblem(error, request);

    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined) {
      reply.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    } else if (problem.status === 503) {
      reply.header('Retry-After', '5');
    }
    void reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  }

  private toProblem(error: unknown, request: FastifyRequest): Problem {
    const instance = request.url.split('?')[0];
    if (error instanceof DomainError) {
      const status = statusOf(error.code);
      return {
        ...error.extensions,
        type: problemType(error.code),
        title: titleOf(error.code),
        status,
        detail: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        instance,
      };
    }
    if (error instanceof HttpException && error.getStatus() === 503) {
      // Readiness: terminus reports each dependency's state under `details`.
      const checks = (error.getResponse() as { details?: unknown }).details;
      const detail = 'A dependency of the service is unavailable; `checks` says which. Try again shortly.';
      return { ...problemBase('service_unavailable', 503, detail, instance), ...(checks ? { checks } : {}) };
    }
    if (error instanceof HttpException && error.getStatus() < 500) {
      const status = error.getStatus();
      return problemBase(codeForHttpStatus(status), status, httpDetail(error, request), instance);
    }
    if (isDatabaseUnavailable(error)) {
      this.logger.warn({ err: error, path: instance }, 'Database unavailable');
      return problemBase(
        'service_unavailable',
        503,
        'The database is unavailable for a moment. Nothing was changed; try again in a few seconds.',
        instance,
      );
    }

    const errorId = randomUUID();
    this.logger.error({ err: error, error_id: errorId, path: instance }, 'Unexpected error');
    const status = HttpStatus.INTERNAL_SERVER_ERROR;
    return {
      type: problemType('internal_error'),
      title: titleOf('internal_error'),
      status,
      detail: `Something went wrong on our side. Try again; if it keeps happening, contact support with error id ${errorId}.`,
      code: 'internal_error',
      error_id: errorId,
      instance,
    };
  }
}

function problemBase(code: ErrorCode, status: number, detail: string, instance: string | undefined): Problem {
  return { type: problemType(code), title: titleOf(code), status, detail, code, instance };
}

function httpDetail(error: HttpException, request: FastifyRequest): string {
  if (error.getStatus() === 404)
    return `There is no endpoint ${request.method} ${request.url.split('?')[0]}. See /api/docs.`;
  // The server's own refusals arrive wrapped, with its error (and its `code`) as the cause.
  const serverCode = (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof serverCode === 'string' && SERVER_DETAIL[serverCode]) return SERVER_DETAIL[serverCode];
  const body = error.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

/**
 * PostgreSQL out of reach: the connection refused, reset or timed out, the server shutting
 * down or starting up (SQLSTATE class 08, 57P01–57P03), or the pool unable to connect. A
 * moment's outage, not a fault in the request: 503, so clients retry.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (/^08/.test(code) || /^57P0[123]$/.test(code))) return true;
    if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown; driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
