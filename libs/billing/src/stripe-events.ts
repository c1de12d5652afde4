import type { PaymentStatus } from '@docconv/db';

/** What an event of a Checkout Session does to the session's payment. */
export type PaymentMove = 'paid' | 'unpaid' | 'failed' | 'expired';

export interface PaymentMoveSpec {
  /** The payment's status before the move; null: no payment is recorded for the checkout yet. */
  from: readonly (PaymentStatus | null)[];
  to: PaymentStatus;
  /** Whether the move credits the checkout's quoted points. */
  credits: boolean;
}

/**
 * Every way a payment's status changes, declared once. A payment is recorded per checkout; `done`
 * and `failed` are final, so a payment is credited at most once and never after it failed.
 */
export const PAYMENT_MOVES: Record<PaymentMove, PaymentMoveSpec> = {
  /** Stripe reports the money received: at once (card) or later (bank debit, transfer). */
  paid: { from: [null, 'pending'], to: 'done', credits: true },
  /** The buyer completed the checkout with a payment that clears later. */
  unpaid: { from: [null], to: 'pending', credits: false },
  /** The delayed payment did not clear. */
  failed: { from: [null, 'pending'], to: 'failed', credits: false },
  /** The session expired: it ends a payment still waiting; a checkout never completed has no payment. */
  expired: { from: ['pending'], to: 'failed', credits: false },
};

/** Which move each Checkout Session event makes, by the session's `payment_status` in it. */
const EVENT_MOVES: Readonly<Record<string, Readonly<Record<string, PaymentMove>>>> = {
  'checkout.session.completed': { paid: 'paid', unpaid: 'unpaid' },
  'checkout.session.async_payment_succeeded': { paid: 'paid' },
  'checkout.session.async_payment_failed': { unpaid: 'failed' },
  'checkout.session.expired': { unpaid: 'expired' },
};

/** The Stripe event types the webhook acts on (the endpoint in Stripe's dashboard should send these). */
export const STRIPE_EVENT_TYPES = Object.keys(EVENT_MOVES);

/** A verified event about a Checkout Session, its fields checked for type and form. */
export interface CheckoutSessionEvent {
  eventId: string;
  type: string;
  move: PaymentMove;
  sessionId: string;
  /** `client_reference_id`: the docconv user the checkout was opened for. */
  userId: string | null;
  /** `amount_total`: a positive whole number of the currency's minor unit. */
  amountMinor: number;
  /** Lower-case ISO 4217, as Stripe writes it. */
  currency: string;
  /** The PaymentIntent id, when Stripe names one. */
  paymentIntent: string | null;
}

export type ReadStripeEvent =
  | { kind: 'checkout'; event: CheckoutSessionEvent }
  /** An event of a type the service does not act on. */
  | { kind: 'other'; type: string }
  /** An event the service acts on whose content cannot be used; `reason` says what is wrong. */
  | { kind: 'invalid'; eventId: string | null; type: string | null; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as it appears in a reason, shortened. */
const shown = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

const STRIPE_ID = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9_]{1,250}$`);
const SESSION_ID = STRIPE_ID('cs');
const PAYMENT_INTENT_ID = STRIPE_ID('pi');

/**
 * Reads a verified Stripe event (parsed JSON of any shape). Every field used is checked for its type
 * and form here, so what reaches the database is a well-formed id, a safe positive integer and a
 * currency code; whether they match the checkout's quote is for the caller to say.
 */
export function readStripeEvent(event: unknown): ReadStripeEvent {
  if (!isRecord(event) || typeof event.type !== 'string' || typeof event.id !== 'string') {
    return { kind: 'invalid', eventId: null, type: null, reason: 'the body is not a Stripe event (id, type)' };
  }
  const { id: eventId, type } = event;
  const moves = EVENT_MOVES[type];
  if (!moves) return { kind: 'other', type };
  const invalid = (reason: string): ReadStripeEvent => ({ kind: 'invalid', eventId, type, reason });

  const session = isRecord(event.data) ? event.data.object : undefined;
  if (!isRecord(session) || session.object !== 'checkout.session') {
    return invalid('data.object is not a Checkout Session');
  }
  if (typeof session.id !== 'string' || !SESSION_ID.test(session.id)) {
    return invalid(`the session id ${shown(session.id)} is not a Checkout Session id (cs_…)`);
  }
  const status = session.payment_status;
  const move = typeof status === 'string' && Object.hasOwn(moves, status) ? moves[status] : undefined;
  if (!move) return invalid(`${type} with payment_status ${shown(status)} changes no payment`);
  const amount = session.amount_total;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    return invalid(`amount_total must be a positive whole number of cents; it is ${shown(amount)}`);
  }
  const currency = session.currency;
  if (typeof currency !== 'string' || !/^[a-z]{3}$/.test(currency)) {
    return invalid(`currency must be a lower-case ISO 4217 code; it is ${shown(currency)}`);
  }
  const userId = session.client_reference_id ?? null;
  if (userId !== null && typeof userId !== 'string') {
    return invalid(`client_reference_id must be a string; it is ${shown(userId)}`);
  }
  const intent = isRecord(session.payment_intent) ? session.payment_intent.id : (session.payment_intent ?? null);
  if (intent !== null && (typeof intent !== 'string' || !PAYMENT_INTENT_ID.test(intent))) {
    return invalid(`payment_intent ${shown(intent)} is not a PaymentIntent id (pi_…)`);
  }
  return {
    kind: 'checkout',
    event: { eventId, type, move, sessionId: session.id, userId, amountMinor: amount, currency, paymentIntent: intent },
  };
}
