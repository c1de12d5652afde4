import { unwrap, type DocconvClient } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];

/** A Stripe Checkout opened for the caller: send the buyer to `url`. */
export type Checkout = Schemas['CheckoutResponse'];
/** Whether this service sells credits, and for what (`payments` of GET /api/v1/pricing). */
export type PaymentOffer = Schemas['PaymentOfferResponse'];
/** A payment of the account (GET /api/v1/account/payments). */
export type Payment = Schemas['PaymentResponse'];

export interface CheckoutOptions {
  /** Makes a retry safe: the same key and amount answer the same checkout again. */
  idempotencyKey?: string;
}

/**
 * Buys credits (POST /api/v1/payments/checkout): opens a Stripe Checkout page for `usd` whole
 * dollars, within `offer.min_usd` and `offer.max_usd`, and returns its `url`. Nothing is charged
 * until the buyer pays there; the points arrive once Stripe reports the payment (`getPayments`
 * lists it then). A service without payments answers 503 (`service_unavailable`).
 */
export function startCheckout(client: DocconvClient, usd: number, options: CheckoutOptions = {}): Promise<Checkout> {
  return unwrap(
    client.api.POST('/api/v1/payments/checkout', {
      body: { usd },
      params: { header: { 'Idempotency-Key': options.idempotencyKey } },
    }),
  );
}

/** The points a checkout of `usd` dollars adds, or null when the offer does not allow that amount. */
export function checkoutPoints(offer: PaymentOffer, usd: number): number | null {
  if (!offer.available || !Number.isInteger(usd) || usd < offer.min_usd || usd > offer.max_usd) return null;
  return usd * offer.points_per_usd;
}
