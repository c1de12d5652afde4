import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { JOB_NAMES } from '@docconv/contracts';
import { assertEveryJobHandled, HandlerRegistry } from './handler-registry';
import { JobHandler } from './job-handler.decorator';

describe('job handlers', () => {
  it('names every declared job that has no handler', () => {
    expect(() => assertEveryJobHandled(['a.run', 'b.run', 'c.run'], ['b.run'])).toThrow(
      'no handler for job(s) a.run, c.run',
    );
    expect(() => assertEveryJobHandled(['a.run'], ['a.run'])).not.toThrow();
  });

  it('a worker whose providers miss a handler refuses to boot', async () => {
    @Module({ imports: [DiscoveryModule], providers: [HandlerRegistry] })
    class Empty {}
    await expect(NestFactory.createApplicationContext(Empty, { logger: false, abortOnError: false })).rejects.toThrow(
      `no handler for job(s) ${JOB_NAMES.join(', ')}`,
    );
  });

  it('finds decorated methods and dispatches by job name', async () => {
    @Injectable()
    class Handlers {}
    for (const name of JOB_NAMES) {
      const descriptor = { value: (payload: unknown) => Promise.resolve({ name, got: payload }) };
      Object.defineProperty(Handlers.prototype, name, descriptor);
      JobHandler(name)(Handlers.prototype, name, descriptor);
    }
    @Module({ imports: [DiscoveryModule], providers: [HandlerRegistry, Handlers] })
    class Complete {}
    const app = await NestFactory.createApplicationContext(Complete, { logger: false });
    const registry = app.get(HandlerRegistry);
    for (const name of JOB_NAMES) {
      expect(await registry.run({ name, data: { x: 1 } } as never)).toEqual({ name, got: { x: 1 } });
    }
    await app.close();
  });
});
