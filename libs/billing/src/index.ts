export * from './billing.module';
export * from './ledger.service';
export * from './payments.service';
export * from './pricing';
