import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';

@Module({ providers: [LedgerService], exports: [LedgerService] })
export class BillingModule {}
