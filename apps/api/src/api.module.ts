import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '@docconv/accounts';
import { BillingModule } from '@docconv/billing';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';
import { MetricsModule } from '@docconv/metrics';
import { JobsModule } from '@docconv/jobs';
import { QueueModule, RedisModule } from '@docconv/redis';
import { StorageModule } from '@docconv/storage';
import { AccountController } from './account/account.controller';
import { AccessGuard } from './auth/access.guard';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { ProblemFilter } from './errors/problem.filter';
import { FilesModule } from './files/files.module';
import { HealthModule } from './health/health.module';
import { JobResultsService } from './jobs/job-results.service';
import { JobsController } from './jobs/jobs.controller';
import { UploadService } from './jobs/upload.service';
import { KeysController } from './keys/keys.controller';
import { PaymentCheckoutService } from './payments/payment-checkout.service';
import { PaymentWebhookService } from './payments/payment-webhook.service';
import { PaymentsController } from './payments/payments.controller';
import { CapabilitiesController } from './capabilities/capabilities.controller';
import { CapabilitiesService } from './capabilities/capabilities.service';
import { JobStreamService } from './jobs/job-stream.service';
import { IdempotencyService } from './idempotency/idempotency.service';
import { IdempotentInterceptor } from './idempotency/idempotent.interceptor';
import { OperatorMetrics } from './operator/operator-metrics.service';
import { PricingController } from './pricing/pricing.controller';
import { SlidingWindowLimiter } from './rate-limit/sliding-window.limiter';
import { LoginThrottle } from './auth/login-throttle';
import { RequestCounter } from './usage/request-counter.service';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, extraModules: Type[] = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        DbModule.forRoot(),
        RedisModule,
        StorageModule,
        AccountsModule,
        BillingModule,
        QueueModule.forRoot(),
        JobsModule,
        HealthModule,
        FilesModule,
        WebhooksApiModule,
        MetricsModule,
        ...extraModules,
      ],
      controllers: [
        AuthController,
        KeysController,
        AccountController,
        PaymentsController,
        JobsController,
        PricingController,
        CapabilitiesController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_GUARD, useClass: AccessGuard },
        SlidingWindowLimiter,
        LoginThrottle,
        RequestCounter,
        AuthService,
        PaymentWebhookService,
        PaymentCheckoutService,
        UploadService,
        CapabilitiesService,
        IdempotencyService,
        IdempotentInterceptor,
        JobStreamService,
        JobResultsService,
        OperatorMetrics,
      ],
    };
  }
}
