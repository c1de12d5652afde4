import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { JOB_NAMES, type JobName } from '@docconv/contracts';
import type { Job } from 'bullmq';
import { JOB_HANDLER } from './job-handler.decorator';

type Handler = (payload: unknown, job: Job) => Promise<unknown>;

/** Finds every `@JobHandler` at boot; refuses to start while a declared job name has none. */
@Injectable()
export class HandlerRegistry implements OnModuleInit {
  private readonly logger = new Logger(HandlerRegistry.name);
  private readonly handlers = new Map<JobName, Handler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = (instance as Record<string, unknown>)[method];
        if (typeof fn !== 'function') continue;
        const name = Reflect.getMetadata(JOB_HANDLER, fn) as JobName | undefined;
        if (!name) continue;
        if (this.handlers.has(name)) throw new Error(`Job ${name} has two handlers; keep exactly one`);
        this.handlers.set(name, (fn as Handler).bind(instance));
      }
    }
    assertEveryJobHandled(JOB_NAMES, [...this.handlers.keys()]);
    this.logger.log(`Handlers registered for ${[...this.handlers.keys()].join(', ')}`);
  }

  async run(job: Job): Promise<unknown> {
    const handler = this.handlers.get(job.name as JobName);
    if (!handler) throw new Error(`No handler for job ${job.name}`);
    return handler(job.data, job);
  }
}

/** Throws, naming each job name that no handler serves. */
export function assertEveryJobHandled(declared: readonly string[], handled: readonly string[]): void {
  const missing = declared.filter((name) => !handled.includes(name));
  if (missing.length > 0) {
    throw new Error(
      `The worker cannot start: no handler for job(s) ${missing.join(', ')}. Add a @JobHandler for each.`,
    );
  }
}
