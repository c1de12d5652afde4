import { Global, Module } from '@nestjs/common';
import { MetricsRegistry } from './registry';

/** The process's registry, which every service that records a figure registers its families on. */
@Global()
@Module({ providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsModule {}
