import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { CHECKOUT_GATEWAY, checkoutGatewayFor } from './checkout-gateway';
import { CheckoutService } from './checkout.service';
import { FreePagesService } from './free-pages.service';
import { LedgerService } from './ledger.service';
import { PaymentsService } from './payments.service';

@Module({
  providers: [
    LedgerService,
    PaymentsService,
    FreePagesService,
    CheckoutService,
    {
      provide: CHECKOUT_GATEWAY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => checkoutGatewayFor(config.payments),
    },
  ],
  exports: [LedgerService, PaymentsService, FreePagesService, CheckoutService],
})
export class BillingModule {}
