import type { PaymentSettings } from '@docconv/config';
import Stripe from 'stripe';

/** What a hosted checkout page is opened for: one purchase of credits by one user. */
export interface CheckoutRequest {
  userId: string;
  /** Whole US dollars. */
  usd: number;
  /** The points the payment will add once it is reported paid. */
  points: number;
  /** What the buyer reads on the checkout page, e.g. `10,000 docconv points`. */
  description: string;
  successUrl: string;
  cancelUrl: string;
}

export interface OpenedCheckout {
  /** The provider's session id, e.g. `cs_test_…`. */
  id: string;
  /** The hosted page to send the buyer to. */
  url: string;
}

/** The payment provider, as far as selling credits needs it. */
export interface CheckoutGateway {
  open(request: CheckoutRequest): Promise<OpenedCheckout>;
}

/** Injection token of the configured gateway, or null when no provider is configured. */
export const CHECKOUT_GATEWAY = Symbol('CHECKOUT_GATEWAY');

/**
 * Stripe Checkout in payment mode: one USD line item for the credits, the user id as
 * `client_reference_id` (the webhook credits that user) and in the metadata beside the points.
 */
export class StripeCheckoutGateway implements CheckoutGateway {
  private readonly stripe: Stripe;

  constructor(secretKey: string, apiBase: PaymentSettings['stripeApiBase']) {
    this.stripe = new Stripe(secretKey, {
      ...(apiBase ?? {}),
      maxNetworkRetries: 1,
      timeout: 20_000,
      appInfo: { name: 'docconv' },
    });
  }

  async open(request: CheckoutRequest): Promise<OpenedCheckout> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: request.userId,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: request.usd * 100,
            product_data: { name: request.description },
          },
        },
      ],
      metadata: { user_id: request.userId, points: String(request.points) },
      payment_intent_data: { metadata: { user_id: request.userId, points: String(request.points) } },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error(`Stripe created Checkout Session ${session.id} without a URL`);
    return { id: session.id, url: session.url };
  }
}

/** The gateway the settings call for: Stripe with a secret key, none without. */
export function checkoutGatewayFor(settings: PaymentSettings): CheckoutGateway | null {
  return settings.stripeSecretKey ? new StripeCheckoutGateway(settings.stripeSecretKey, settings.stripeApiBase) : null;
}
