import { Injectable } from '@nestjs/common';
import { AccountService } from '@docconv/accounts';
import { FreePagesService } from '@docconv/billing';
import type { Principal } from '../auth/principal';
import { keySettings } from '../keys/keys.dto';
import {
  toFreePagesResponse,
  toPaymentResponse,
  toTransactionResponse,
  toUsageRow,
  type AccountResponse,
  type PaymentResponse,
  type TransactionResponse,
  type UsageRowResponse,
} from './account.dto';

/** Builds the account endpoints' responses from the accounts library. */
@Injectable()
export class AccountViewService {
  constructor(
    private readonly accounts: AccountService,
    private readonly freePages: FreePagesService,
  ) {}

  async account(caller: Principal): Promise<AccountResponse> {
    const key = caller.apiKey;
    const [summary, freePages] = await Promise.all([
      this.accounts.summary(caller.userId, key?.id ?? null),
      this.freePages.allowance(caller.userId),
    ]);
    return {
      user_id: summary.userId,
      email: summary.email,
      points_balance: summary.pointsBalance,
      api_key: key && { ...keySettings(key), daily_spent_points: summary.keySpentToday ?? 0 },
      today_usage: { points_spent: summary.today.pointsSpent, requests: summary.today.requests },
      free_pages: toFreePagesResponse(freePages),
    };
  }

  async transactions(caller: Principal, limit: number): Promise<TransactionResponse[]> {
    return (await this.accounts.transactions(caller.userId, limit)).map(toTransactionResponse);
  }

  async usage(caller: Principal, days: number): Promise<UsageRowResponse[]> {
    return (await this.accounts.usage(caller.userId, days)).map(toUsageRow);
  }

  async payments(caller: Principal, limit: number): Promise<PaymentResponse[]> {
    return (await this.accounts.payments(caller.userId, limit)).map(toPaymentResponse);
  }
}
