import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';
import { PaymentsService } from './payments.service';

@Module({ providers: [LedgerService, PaymentsService], exports: [LedgerService, PaymentsService] })
export class BillingModule {}
