import { DataSource, type DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from './entities/api-key.entity';
import { CheckoutEntity } from './entities/checkout.entity';
import { CreditTransactionEntity } from './entities/credit-transaction.entity';
import { JobConversionEntity } from './entities/job-conversion.entity';
import { JobFileEntity } from './entities/job-file.entity';
import { JobEntity } from './entities/job.entity';
import { PaymentEntity } from './entities/payment.entity';
import { SessionEntity } from './entities/session.entity';
import { UserEntity } from './entities/user.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { UsersAndLedger1763798400000 } from './migrations/1763798400000-users-and-ledger';
import { KeysPaymentsUsage1763798500000 } from './migrations/1763798500000-keys-payments-usage';
import { Jobs1763798600000 } from './migrations/1763798600000-jobs';
import { Webhooks1763798900000 } from './migrations/1763798900000-webhooks';
import { MediaProgress1764000000000 } from './migrations/1764000000000-media-progress';
import { SkippedFiles1764100000000 } from './migrations/1764100000000-skipped-files';
import { Lifecycle1764200000000 } from './migrations/1764200000000-lifecycle';
import { FairQueueing1764300000000 } from './migrations/1764300000000-fair-queueing';
import { RangeProgress1764400000000 } from './migrations/1764400000000-range-progress';
import { ParseQueues1764500000000 } from './migrations/1764500000000-parse-queues';
import { OcrSample1764600000000 } from './migrations/1764600000000-ocr-sample';
import { HwpxConversions1764700000000 } from './migrations/1764700000000-hwpx-conversions';
import { PageOutcomes1764800000000 } from './migrations/1764800000000-page-outcomes';
import { CheckoutQuotes1764900000000 } from './migrations/1764900000000-checkout-quotes';
import { Sessions1765000000000 } from './migrations/1765000000000-sessions';
import { FreePagesReturned1765100000000 } from './migrations/1765100000000-free-pages-returned';
import { PageFurniture1765200000000 } from './migrations/1765200000000-page-furniture';
import { PageEvents1765300000000 } from './migrations/1765300000000-page-events';
import { HtmlContent1765400000000 } from './migrations/1765400000000-html-content';

export const ENTITIES = [
  UserEntity,
  CreditTransactionEntity,
  ApiKeyEntity,
  PaymentEntity,
  CheckoutEntity,
  JobEntity,
  JobFileEntity,
  JobConversionEntity,
  WebhookDeliveryEntity,
  SessionEntity,
];

/** In order. A new migration is appended here and nowhere else. */
export const MIGRATIONS = [
  UsersAndLedger1763798400000,
  KeysPaymentsUsage1763798500000,
  Jobs1763798600000,
  Webhooks1763798900000,
  MediaProgress1764000000000,
  SkippedFiles1764100000000,
  Lifecycle1764200000000,
  FairQueueing1764300000000,
  RangeProgress1764400000000,
  ParseQueues1764500000000,
  OcrSample1764600000000,
  HwpxConversions1764700000000,
  PageOutcomes1764800000000,
  CheckoutQuotes1764900000000,
  Sessions1765000000000,
  FreePagesReturned1765100000000,
  PageFurniture1765200000000,
  PageEvents1765300000000,
  HtmlContent1765400000000,
];

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    extra: { max: 20, connectionTimeoutMillis: 5_000 },
  };
}

export function createDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url));
}
