import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@docconv/accounts';
import { BillingModule } from '@docconv/billing';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';

@Module({})
export class AdminModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AdminModule,
      imports: [ConfigModule.forRoot(config), DbModule.forRoot(), AccountsModule, BillingModule],
    };
  }
}
