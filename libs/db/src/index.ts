export * from './data-source';
export * from './db.module';
export * from './migrate';
export * from './entities/column-types';
export * from './entities/user.entity';
export * from './entities/credit-transaction.entity';
export * from './entities/api-key.entity';
export * from './entities/payment.entity';
