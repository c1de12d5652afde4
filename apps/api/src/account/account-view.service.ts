import { Injectable } from '@nestjs/common';
import { AccountService } from '@docconv/accounts';
import { LedgerService } from '@docconv/billing';
import type { Principal } from '../auth/principal';
import { keySettings } from '../keys/keys.dto';
import {
  toPaymentResponse,
  toTransactionResponse,
  toUsageRow,
  type AccountResponse,
  type PaymentResponse,
  type TransactionResponse,
  type UsageRowResponse,
} from './account.dto';

/** Builds the account endpoints' responses from the accounts and billing libraries. */
@Injectable()
export class AccountViewService {
  constructor(
    private readonly accounts: AccountService,
    private readonly ledger: LedgerService,
  ) {}

  async account(caller: Principal): Promise<AccountResponse> {
    const [user, [today]] = await Promise.all([
      this.accounts.user(caller.userId),
      this.accounts.usage(caller.userId, 1),
    ]);
    const key = caller.apiKey;
    return {
      user_id: user.id,
      email: user.email,
      points_balance: user.pointsBalance,
      api_key: key && { ...keySettings(key), daily_spent_points: await this.ledger.spentToday(key.id) },
      today_usage: { points_spent: today.pointsSpent, requests: today.requests },
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
