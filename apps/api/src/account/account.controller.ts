import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountService } from '@docconv/accounts';
import { FreePagesService } from '@docconv/billing';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import {
  AccountResponse,
  DaysQuery,
  LimitQuery,
  PaymentResponse,
  TransactionResponse,
  UsageRowResponse,
  toAccountResponse,
  toPaymentResponse,
  toTransactionResponse,
  toUsageRow,
} from './account.dto';

@ApiTags('account')
@Controller('account')
@Access({ credential: 'api_key_or_jwt' })
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly freePages: FreePagesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Balance, the calling key, today’s usage and the free basic pages left this month.' })
  @ApiOkResponse({ type: AccountResponse })
  async account(@Caller() caller: Principal): Promise<AccountResponse> {
    const [summary, freePages] = await Promise.all([
      this.accounts.summary(caller.userId, caller.apiKey?.id ?? null),
      this.freePages.allowance(caller.userId),
    ]);
    return toAccountResponse(summary, freePages, caller.apiKey);
  }

  @Get('transactions')
  @ApiOperation({ summary: 'Credit transactions, newest first.' })
  @ApiOkResponse({ type: TransactionResponse, isArray: true })
  async transactions(@Caller() caller: Principal, @Query() query: LimitQuery): Promise<TransactionResponse[]> {
    return (await this.accounts.transactions(caller.userId, query.limit)).map(toTransactionResponse);
  }

  @Get('usage')
  @ApiOperation({ summary: 'One row per UTC day for the last `days` days including today, oldest first.' })
  @ApiOkResponse({ type: UsageRowResponse, isArray: true })
  async usage(@Caller() caller: Principal, @Query() query: DaysQuery): Promise<UsageRowResponse[]> {
    return (await this.accounts.usage(caller.userId, query.days)).map(toUsageRow);
  }

  @Get('payments')
  @ApiOperation({ summary: 'Payments, newest first.' })
  @ApiOkResponse({ type: PaymentResponse, isArray: true })
  async payments(@Caller() caller: Principal, @Query() query: LimitQuery): Promise<PaymentResponse[]> {
    return (await this.accounts.payments(caller.userId, query.limit)).map(toPaymentResponse);
  }
}
