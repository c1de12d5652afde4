import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, publicUrl, type AppConfig } from '@docconv/config';
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

const NOT_CONFIGURED =
  'Payments are not configured on this server (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET): credits cannot be bought here. The operator can grant credits instead.';

/**
 * Why credits cannot be bought here, or null when they can. Selling credits needs both halves:
 * the secret key opens checkouts and the webhook secret lets the paid ones be credited; with only
 * one of them nothing is offered, so no one pays for credits that would never arrive. And a public
 * URL (`PUBLIC_BASE_URL`) for Stripe to send the buyer back to: never one a request names.
 */
function unavailable(config: Pick<AppConfig, 'payments' | 'publicBaseUrl'>): string | null {
  const settings = config.payments;
  if (settings.stripeSecretKey === null || settings.stripeWebhookSecret === null) return NOT_CONFIGURED;
  if (config.publicBaseUrl === null) {
    return 'This server has no public address (PUBLIC_BASE_URL) for Stripe to send the buyer back to, so credits cannot be bought here; nothing was charged. The operator can set PUBLIC_BASE_URL, or grant credits instead.';
  }
  return null;
}

export function paymentOffer(config: Pick<AppConfig, 'payments' | 'publicBaseUrl'>): PaymentOffer {
  const settings = config.payments;
  return {
    available: unavailable(config) === null,
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
    return paymentOffer(this.config);
  }

  /**
   * Opens a checkout for `usd` whole dollars. The buyer comes back to the console's account page
   * on the service's public URL (`PUBLIC_BASE_URL`): Stripe needs an absolute return URL, and one
   * taken from the request would let anyone send a buyer to a site of their choosing.
   */
  async start(userId: string, usd: number): Promise<StartedCheckout> {
    const offer = this.offer();
    const base = this.config.publicBaseUrl;
    if (!offer.available || !this.gateway || base === null) {
      throw new DomainError('service_unavailable', unavailable(this.config) ?? NOT_CONFIGURED);
    }
    if (!Number.isInteger(usd) || usd < offer.minUsd || usd > offer.maxUsd) {
      const message = `must be a whole number of US dollars from ${offer.minUsd} to ${offer.maxUsd}`;
      throw new DomainError('validation_failed', `usd ${message}; got ${usd}.`, {
        errors: [{ field: 'usd', message }],
      });
    }
    const points = usd * offer.pointsPerUsd;
    const successUrl = publicUrl(base, '/?checkout=success#/account');
    const cancelUrl = publicUrl(base, '/?checkout=cancelled#/account');
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
