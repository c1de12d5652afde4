import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, type PaymentSettings } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { CheckoutEntity } from '@docconv/db';
import { DataSource } from 'typeorm';
import { CHECKOUT_GATEWAY, type CheckoutGateway } from './checkout-gateway';

/** Whether credits can be bought here, and for what amounts. */
export interface PaymentOffer {
  available: boolean;
  provider: 'stripe';
  currency: 'USD';
  minUsd: number;
  maxUsd: number;
  pointsPerUsd: number;
}

/** A checkout opened for a user: where to send them and what it will credit. */
export interface StartedCheckout {
  sessionId: string;
  url: string;
  usd: number;
  points: number;
  successUrl: string;
  cancelUrl: string;
}

/**
 * Selling credits needs both halves: the secret key opens checkouts and the webhook secret lets
 * the paid ones be credited. With only one of them nothing is offered, so no one pays for credits
 * that would never arrive.
 */
export function paymentOffer(settings: PaymentSettings): PaymentOffer {
  return {
    available: settings.stripeSecretKey !== null && settings.stripeWebhookSecret !== null,
    provider: 'stripe',
    currency: 'USD',
    minUsd: settings.checkoutMinUsd,
    maxUsd: settings.checkoutMaxUsd,
    pointsPerUsd: settings.stripePointsPerUsd,
  };
}

/**
 * Buying credits: a hosted Stripe Checkout page, whose quote (amount and points) is kept when it is
 * opened; the webhook credits the payment at that quote once it is paid.
 */
@Injectable()
export class CheckoutService {
  private readonly logger = new Logger(CheckoutService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHECKOUT_GATEWAY) private readonly gateway: CheckoutGateway | null,
  ) {}

  offer(): PaymentOffer {
    return paymentOffer(this.config.payments);
  }

  /**
   * Opens a checkout for `usd` whole dollars. The buyer comes back to the console's account page
   * on the service's public URL (`PUBLIC_BASE_URL`), or on `requestOrigin` when none is set.
   */
  async start(userId: string, usd: number, requestOrigin: string): Promise<StartedCheckout> {
    const offer = this.offer();
    if (!offer.available || !this.gateway) {
      throw new DomainError(
        'service_unavailable',
        'Payments are not configured on this server (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET): credits cannot be bought here. The operator can grant credits instead.',
      );
    }
    if (!Number.isInteger(usd) || usd < offer.minUsd || usd > offer.maxUsd) {
      const message = `must be a whole number of US dollars from ${offer.minUsd} to ${offer.maxUsd}`;
      throw new DomainError('validation_failed', `usd ${message}; got ${usd}.`, {
        errors: [{ field: 'usd', message }],
      });
    }
    const points = usd * offer.pointsPerUsd;
    const base = this.config.storage.publicBaseUrl ?? requestOrigin.replace(/\/+$/, '');
    const successUrl = `${base}/?checkout=success#/account`;
    const cancelUrl = `${base}/?checkout=cancelled#/account`;
    try {
      const session = await this.gateway.open({
        userId,
        usd,
        points,
        description: `${points.toLocaleString('en-US')} docconv points`,
        successUrl,
        cancelUrl,
      });
      await this.dataSource.getRepository(CheckoutEntity).insert({
        userId,
        provider: 'stripe',
        sessionId: session.id,
        currency: offer.currency,
        amountCents: usd * 100,
        points,
      });
      this.logger.log({ user_id: userId, session_id: session.id, usd, points }, 'checkout opened');
      return { sessionId: session.id, url: session.url, usd, points, successUrl, cancelUrl };
    } catch (error) {
      this.logger.error({ user_id: userId, usd, err: error }, 'Stripe did not open a checkout');
      throw new DomainError(
        'service_unavailable',
        'The payment provider did not open a checkout just now; nothing was charged. Try again in a minute.',
        { retryAfterSeconds: 60, cause: error },
      );
    }
  }
}
