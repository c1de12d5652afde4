export * from './billing.module';
export * from './ledger.service';
