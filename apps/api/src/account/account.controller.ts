import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import {
  AccountResponse,
  DaysQuery,
  LimitQuery,
  PaymentResponse,
  TransactionResponse,
  UsageRowResponse,
} from './account.dto';
import { AccountViewService } from './account-view.service';

@ApiTags('account')
@Controller('account')
@Access({ credential: 'api_key_or_jwt' })
export class AccountController {
  constructor(private readonly view: AccountViewService) {}

  @Get()
  @ApiOperation({ summary: 'Balance, the calling key, today’s usage and the free basic pages left this month.' })
  @ApiOkResponse({ type: AccountResponse })
  account(@Caller() caller: Principal): Promise<AccountResponse> {
    return this.view.account(caller);
  }

  @Get('transactions')
  @ApiOperation({ summary: 'Credit transactions, newest first.' })
  @ApiOkResponse({ type: TransactionResponse, isArray: true })
  transactions(@Caller() caller: Principal, @Query() query: LimitQuery): Promise<TransactionResponse[]> {
    return this.view.transactions(caller, query.limit);
  }

  @Get('usage')
  @ApiOperation({ summary: 'One row per UTC day for the last `days` days including today, oldest first.' })
  @ApiOkResponse({ type: UsageRowResponse, isArray: true })
  usage(@Caller() caller: Principal, @Query() query: DaysQuery): Promise<UsageRowResponse[]> {
    return this.view.usage(caller, query.days);
  }

  @Get('payments')
  @ApiOperation({ summary: 'Payments, newest first.' })
  @ApiOkResponse({ type: PaymentResponse, isArray: true })
  payments(@Caller() caller: Principal, @Query() query: LimitQuery): Promise<PaymentResponse[]> {
    return this.view.payments(caller, query.limit);
  }
}
