export * from './billing.module';
export * from './checkout-gateway';
export * from './checkout.service';
export * from './free-pages.service';
export * from './ledger.service';
export * from './payments.service';
export * from './pricing';
export * from './stripe-events';
