import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One middleware that runs `handlers` in turn, as Express runs separate layers: each goes on
 * when the one before calls `next()`, and an error (passed to `next` or thrown) skips the rest
 * and goes to Express's error handling. Express's router visits every layer of its stack for
 * every request, so middleware every request passes through costs less as one layer.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const handler = handlers[index++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        const result: unknown = handler(request, response, step);
        if (result instanceof Promise)
          result.catch((rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
