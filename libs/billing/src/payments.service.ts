import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { CheckoutEntity, PaymentEntity } from '@docconv/db';
import Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { LedgerService } from './ledger.service';
import { PAYMENT_MOVES, readStripeEvent, type CheckoutSessionEvent } from './stripe-events';

/** What a verified provider event did. */
export type PaymentEventResult =
  /** A payment was recorded or changed status (and, once paid, credited). */
  | { outcome: 'recorded'; payment: PaymentEntity }
  /** The payment already was in the status the event reports: nothing changed. */
  | { outcome: 'duplicate'; payment: PaymentEntity }
  /** Nothing changed; `reason` says why, `notable` whether someone should look at it. */
  | { outcome: 'ignored'; reason: string; notable: boolean; eventId: string | null; payment?: PaymentEntity };

/**
 * Top-ups: a verified provider event moves its checkout's payment (see PAYMENT_MOVES) and, when it
 * is paid, posts a `charge` of the points the checkout quoted, in one transaction, once.
 */
@Injectable()
export class PaymentsService {
  private readonly stripe = new Stripe('sk_unused_for_webhook_verification');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: LedgerService,
  ) {}

  /** Verifies the `Stripe-Signature` header over the raw body and returns the event as parsed JSON, unchecked. */
  verifyStripeEvent(rawBody: Buffer | undefined, signature: string | undefined): unknown {
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
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new DomainError('invalid_signature', 'The Stripe-Signature header does not match this payload.');
      }
      throw new DomainError('validation_failed', 'The webhook body is not a JSON Stripe event.');
    }
  }

  /** Applies a verified Stripe event to its checkout's payment. Delivering an event again changes nothing. */
  async applyStripeEvent(body: unknown): Promise<PaymentEventResult> {
    const read = readStripeEvent(body);
    switch (read.kind) {
      case 'other':
        return { outcome: 'ignored', reason: `${read.type} events change no payment`, notable: false, eventId: null };
      case 'invalid':
        return { outcome: 'ignored', reason: read.reason, notable: true, eventId: read.eventId };
      case 'checkout':
        return this.dataSource.transaction((m) => this.applyCheckoutEvent(m, read.event));
    }
  }

  private async applyCheckoutEvent(m: EntityManager, event: CheckoutSessionEvent): Promise<PaymentEventResult> {
    const ignored = (reason: string, payment?: PaymentEntity): PaymentEventResult => ({
      outcome: 'ignored',
      reason,
      notable: true,
      eventId: event.eventId,
      payment,
    });
    // The checkout's row is locked first: every event of one session is applied one after another.
    const checkout = await m
      .getRepository(CheckoutEntity)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.provider = :provider AND c.session_id = :sessionId', { provider: 'stripe', sessionId: event.sessionId })
      .getOne();
    if (!checkout) return ignored(`no checkout opened here has the session id ${event.sessionId}`);
    if (event.userId !== checkout.userId) {
      return ignored(`client_reference_id ${event.userId ?? 'null'} is not the user the checkout was opened for`);
    }
    if (event.currency !== checkout.currency.toLowerCase()) {
      return ignored(
        `the payment is in ${event.currency}; the checkout was opened in ${checkout.currency.toLowerCase()}`,
      );
    }
    if (event.amountMinor !== checkout.amountCents) {
      return ignored(`amount_total ${event.amountMinor} differs from the checkout's quote of ${checkout.amountCents}`);
    }

    const move = PAYMENT_MOVES[event.move];
    const existing = await m.findOneBy(PaymentEntity, { checkoutId: checkout.id });
    if (existing?.status === move.to) return { outcome: 'duplicate', payment: existing };
    if (!move.from.includes(existing?.status ?? null)) {
      return existing
        ? ignored(`the payment is already ${existing.status}`, existing)
        : ignored(`the checkout has no payment for ${event.type} to change`);
    }

    const points = move.credits ? checkout.points : 0;
    const paidAt = move.credits ? new Date() : null;
    let paymentId: string;
    if (existing) {
      await m.update(PaymentEntity, { id: existing.id }, { status: move.to, pointsAdded: points, paidAt });
      paymentId = existing.id;
    } else {
      const [inserted] = await m.query<{ id: string }[]>(
        `INSERT INTO payments (user_id, provider, external_id, currency, amount, points_added, status, paid_at, checkout_id)
         VALUES ($1, 'stripe', $2, $3, $4::numeric / 100, $5, $6, $7, $8)
         ON CONFLICT DO NOTHING
         RETURNING id`,
        [
          checkout.userId,
          event.paymentIntent ?? event.sessionId,
          checkout.currency,
          checkout.amountCents,
          points,
          move.to,
          paidAt,
          checkout.id,
        ],
      );
      if (!inserted) return ignored(`PaymentIntent ${event.paymentIntent} is recorded for another payment`);
      paymentId = inserted.id;
    }
    const payment = await m.findOneByOrFail(PaymentEntity, { id: paymentId });
    if (move.credits) {
      await this.ledger.post(
        {
          userId: checkout.userId,
          type: 'charge',
          points,
          description: `Stripe payment ${payment.externalId}: $${payment.amount}`,
          idempotencyKey: `payment:stripe:${checkout.sessionId}`,
        },
        m,
      );
    }
    return { outcome: 'recorded', payment };
  }
}
