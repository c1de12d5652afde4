import type { Request, RequestHandler, Response } from 'express';
import { chain } from './chain';

const request = {} as Request;
const response = {} as Response;

describe('chain', () => {
  it('runs the handlers in turn, then goes on', () => {
    const order: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        order.push(name);
        next();
      };
    const next = jest.fn<void, [error?: unknown]>();
    chain(step('a'), step('b'), step('c'))(request, response, next);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });

  it('skips the rest on an error passed to next or thrown', () => {
    const failure = new Error('refused');
    const later = jest.fn();
    const passed = jest.fn<void, [error?: unknown]>();
    chain((_req, _res, next) => next(failure), later)(request, response, passed);
    expect(passed).toHaveBeenCalledWith(failure);
    const thrown = jest.fn<void, [error?: unknown]>();
    chain(() => {
      throw failure;
    }, later)(request, response, thrown);
    expect(thrown).toHaveBeenCalledWith(failure);
    expect(later).not.toHaveBeenCalled();
  });

  it('hands a rejected promise of an async handler on as an error', async () => {
    const failure = new Error('rejected');
    const next = jest.fn<void, [error?: unknown]>();
    chain(() => Promise.reject(failure))(request, response, next);
    await new Promise((resolve) => setImmediate(resolve));
    expect(next).toHaveBeenCalledWith(failure);
  });
});
