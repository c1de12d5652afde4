import type { LoggerService } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

/** The request (or job) a log line belongs to, carried across awaits. */
export const logContext = new AsyncLocalStorage<{ requestId?: string; jobId?: string }>();

/** How log lines are written: JSON objects (for machines and files) or pretty, coloured lines (for a person). */
export type LogFormat = 'json' | 'pretty';

/** The options that print pino's JSON lines for a person: here, and in `npm run logs` (tools/stack/logs.ts). */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,context',
  messageFormat: '{if context}[{context}] {end}{msg}',
  singleLine: true,
} as const;

export function createRootLogger(level: string, name: string, format: LogFormat = 'json'): Logger {
  const destination = format === 'pretty' ? prettyStream({ ...PRETTY_OPTIONS, sync: true }) : undefined;
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const context = logContext.getStore();
      return context ? { req_id: context.requestId, job_id: context.jobId } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's logger interface on top of pino, so framework messages are JSON lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.write('error', message, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context?: string): void {
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      const { msg, ...fields } = message as Record<string, unknown>;
      this.root[level]({ context, ...fields }, typeof msg === 'string' ? msg : '');
    } else if (message instanceof Error) {
      this.root[level]({ context, err: message }, message.message);
    } else {
      this.root[level]({ context }, String(message));
    }
  }
}
