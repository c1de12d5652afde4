import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { PaymentEntity } from '@docconv/db';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { LedgerService } from './ledger.service';

export interface RecordedPayment {
  payment: PaymentEntity;
  /** False when this event had been recorded before and nothing changed now. */
  created: boolean;
}

/** Top-ups: a verified provider event becomes a payment row and a `charge` in the ledger, once. */
@Injectable()
export class PaymentsService {
  private readonly stripe = new Stripe('sk_unused_for_webhook_verification');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: LedgerService,
  ) {}

  /** Verifies the `Stripe-Signature` header over the raw body and returns the event. */
  verifyStripeEvent(rawBody: Buffer | undefined, signature: string | undefined): Stripe.Event {
    const secret = this.config.payments.stripeWebhookSecret;
    if (!secret) {
      throw new DomainError(
        'service_unavailable',
        'Stripe payments are not configured on this server (STRIPE_WEBHOOK_SECRET).',
      );
    }
    if (!rawBody || !signature) {
      throw new DomainError('invalid_signature', 'The Stripe-Signature header and the raw JSON body are required.');
    }
    try {
      return this.stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new DomainError('invalid_signature', 'The Stripe-Signature header does not match this payload.');
    }
  }

  /** Records a completed Checkout Session. Delivering the same session again changes nothing. */
  async recordStripeCheckout(session: Stripe.Checkout.Session): Promise<RecordedPayment> {
    const userId = session.client_reference_id ?? session.metadata?.user_id;
    if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) {
      throw new DomainError(
        'validation_failed',
        'The Checkout Session names no docconv user: set client_reference_id to the user id when creating it.',
      );
    }
    const currency = (session.currency ?? '').toUpperCase();
    if (currency !== 'USD') {
      throw new DomainError(
        'validation_failed',
        `Only USD payments can be credited; this one is in ${currency || 'no currency'}.`,
      );
    }
    const cents = session.amount_total ?? 0;
    const points = Math.floor((cents * this.config.payments.stripePointsPerUsd) / 100);
    const externalId = typeof session.payment_intent === 'string' ? session.payment_intent : session.id;

    return this.dataSource.transaction(async (m) => {
      const inserted = await m.query<{ id: string }[]>(
        `INSERT INTO payments (user_id, provider, external_id, currency, amount, points_added, status, paid_at)
         SELECT $1, 'stripe', $2, $3, $4::numeric / 100, $5, 'done', to_timestamp($6)
          WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
         ON CONFLICT (provider, external_id) DO NOTHING
         RETURNING id`,
        [userId, externalId, currency, cents, points, session.created],
      );
      if (inserted.length === 0) {
        const existing = await m.findOneBy(PaymentEntity, { provider: 'stripe', externalId });
        if (!existing)
          throw new DomainError('user_not_found', `The Checkout Session names user ${userId}, who does not exist.`);
        return { payment: existing, created: false };
      }
      if (points > 0) {
        await this.ledger.post(
          {
            userId,
            type: 'charge',
            points,
            description: `Stripe payment ${externalId}: $${(cents / 100).toFixed(2)}`,
            idempotencyKey: `payment:stripe:${externalId}`,
          },
          m,
        );
      }
      return { payment: await m.findOneByOrFail(PaymentEntity, { id: inserted[0].id }), created: true };
    });
  }
}
