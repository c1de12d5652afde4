import { ApiProperty } from '@nestjs/swagger';
import {
  CREDIT_TRANSACTION_TYPES,
  type ApiKeyEntity,
  type CreditTransactionEntity,
  type PaymentEntity,
} from '@docconv/db';
import type { AccountSummary, DailyUsage } from '@docconv/accounts';
import type { FreePagesAllowance } from '@docconv/billing';
import { QueryInt } from '../common/query-int';
import { wireTime } from '../common/wire';
import { keySettings } from '../keys/keys.dto';

export class LimitQuery {
  @QueryInt({ min: 1, max: 500, default: 100 })
  limit: number = 100;
}

export class DaysQuery {
  @QueryInt({ min: 1, max: 90, default: 30 })
  days: number = 30;
}

export class AccountKeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() prefix!: string;
  @ApiProperty({ isArray: true, type: String }) scopes!: string[];
  @ApiProperty() rate_limit_rpm!: number;
  @ApiProperty({ nullable: true, type: Number }) daily_quota!: number | null;
  @ApiProperty({ description: 'Points spent with this key since 00:00 UTC.' }) daily_spent_points!: number;
}

export class TodayUsageResponse {
  @ApiProperty() points_spent!: number;
  @ApiProperty({ description: 'Authenticated API calls today (UTC), updated every few seconds.' }) requests!: number;
}

export class FreePagesResponse {
  @ApiProperty({ description: 'Free basic-model pages each user has per UTC calendar month.', example: 100 })
  monthly!: number;
  @ApiProperty({ description: 'Taken this month by jobs that still hold them (pending jobs included).', example: 12 })
  used!: number;
  @ApiProperty({ description: 'Still free this month.', example: 88 }) left!: number;
  @ApiProperty({ description: 'When `used` starts again from 0: 00:00 UTC on the first of next month.' })
  resets_at!: string;
}

export class AccountResponse {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'Milli-USD.' }) points_balance!: number;
  @ApiProperty({
    type: AccountKeyResponse,
    nullable: true,
    description: 'The key of this request; null with a session token.',
  })
  api_key!: AccountKeyResponse | null;
  @ApiProperty({ type: TodayUsageResponse }) today_usage!: TodayUsageResponse;
  @ApiProperty({ type: FreePagesResponse, description: 'The free basic pages of this UTC calendar month.' })
  free_pages!: FreePagesResponse;
}

export class TransactionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: CREDIT_TRANSACTION_TYPES }) type!: string;
  @ApiProperty({ description: 'Signed: negative for a spend.' }) amount!: number;
  @ApiProperty() balance_after!: number;
  @ApiProperty() description!: string;
  @ApiProperty() created_at!: string;
}

export class UsageRowResponse {
  @ApiProperty({ example: '2026-11-22' }) day!: string;
  @ApiProperty() requests!: number;
  @ApiProperty() points_spent!: number;
}

export class PaymentResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'stripe' }) provider!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '10.00' }) amount!: string;
  @ApiProperty() points_added!: number;
  @ApiProperty({ enum: ['pending', 'done', 'failed', 'refunded'] }) status!: string;
  @ApiProperty() external_id!: string;
  @ApiProperty({ nullable: true, type: String }) paid_at!: string | null;
  @ApiProperty() created_at!: string;
}

export function toTransactionResponse(t: CreditTransactionEntity): TransactionResponse {
  return {
    id: t.id,
    type: t.type,
    amount: t.amount,
    balance_after: t.balanceAfter,
    description: t.description,
    created_at: wireTime(t.createdAt),
  };
}

export function toUsageRow(u: DailyUsage): UsageRowResponse {
  return { day: u.day, requests: u.requests, points_spent: u.pointsSpent };
}

export function toPaymentResponse(p: PaymentEntity): PaymentResponse {
  return {
    id: p.id,
    provider: p.provider,
    currency: p.currency,
    amount: p.amount,
    points_added: p.pointsAdded,
    status: p.status,
    external_id: p.externalId,
    paid_at: wireTime(p.paidAt),
    created_at: wireTime(p.createdAt),
  };
}

export function toFreePagesResponse(f: FreePagesAllowance): FreePagesResponse {
  return { monthly: f.monthly, used: f.used, left: f.left, resets_at: wireTime(f.resetsAt) };
}

/** The account's page: its summary, the calling key (none for a session) and the free pages left this month. */
export function toAccountResponse(
  summary: AccountSummary,
  freePages: FreePagesAllowance,
  key: ApiKeyEntity | null,
): AccountResponse {
  return {
    user_id: summary.userId,
    email: summary.email,
    points_balance: summary.pointsBalance,
    api_key: key && { ...keySettings(key), daily_spent_points: summary.keySpentToday ?? 0 },
    today_usage: { points_spent: summary.today.pointsSpent, requests: summary.today.requests },
    free_pages: toFreePagesResponse(freePages),
  };
}
