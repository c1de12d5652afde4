import { PAYMENT_MOVES, readStripeEvent, STRIPE_EVENT_TYPES } from './stripe-events';

const session = (fields: Record<string, unknown> = {}) => ({
  id: 'cs_test_a1',
  object: 'checkout.session',
  client_reference_id: '5b2c3f4e-0000-4000-8000-000000000001',
  amount_total: 1000,
  currency: 'usd',
  payment_status: 'paid',
  payment_intent: 'pi_1',
  ...fields,
});
const event = (type: string, fields: Record<string, unknown> = {}) => ({
  id: 'evt_1',
  object: 'event',
  type,
  data: { object: session(fields) },
});

describe('Stripe events', () => {
  it('maps each Checkout Session event and payment status to its move', () => {
    const moveOf = (type: string, payment_status: string) => {
      const read = readStripeEvent(event(type, { payment_status }));
      return read.kind === 'checkout' ? read.event.move : read.kind;
    };
    expect(moveOf('checkout.session.completed', 'paid')).toBe('paid');
    expect(moveOf('checkout.session.completed', 'unpaid')).toBe('unpaid');
    expect(moveOf('checkout.session.completed', 'no_payment_required')).toBe('invalid');
    expect(moveOf('checkout.session.async_payment_succeeded', 'paid')).toBe('paid');
    expect(moveOf('checkout.session.async_payment_succeeded', 'unpaid')).toBe('invalid');
    expect(moveOf('checkout.session.async_payment_failed', 'unpaid')).toBe('failed');
    expect(moveOf('checkout.session.expired', 'unpaid')).toBe('expired');
    expect(moveOf('checkout.session.completed', 'toString')).toBe('invalid');
    expect(moveOf('customer.created', 'paid')).toBe('other');
    expect(STRIPE_EVENT_TYPES).toHaveLength(4);
  });

  it('credits only by a move to done, and never out of a final status', () => {
    for (const [name, move] of Object.entries(PAYMENT_MOVES)) {
      expect([name, move.credits]).toEqual([name, move.to === 'done']);
      expect(move.from).not.toContain('done');
      expect(move.from).not.toContain('failed');
      expect(move.from).not.toContain(move.to);
    }
  });

  it('takes only a positive safe integer amount and a lower-case currency code', () => {
    for (const amount_total of [-1000, 0, 1000.5, 1e20, Infinity, '1000', null, undefined, [1000], { a: 1 }]) {
      const read = readStripeEvent(event('checkout.session.completed', { amount_total }));
      expect([amount_total, read.kind]).toEqual([amount_total, 'invalid']);
    }
    for (const currency of ['USD', 'us', 840, null, undefined, 'usd ']) {
      const read = readStripeEvent(event('checkout.session.completed', { currency }));
      expect([currency, read.kind]).toEqual([currency, 'invalid']);
    }
    expect(readStripeEvent(event('checkout.session.completed'))).toEqual({
      kind: 'checkout',
      event: {
        eventId: 'evt_1',
        type: 'checkout.session.completed',
        move: 'paid',
        sessionId: 'cs_test_a1',
        userId: '5b2c3f4e-0000-4000-8000-000000000001',
        amountMinor: 1000,
        currency: 'usd',
        paymentIntent: 'pi_1',
      },
    });
  });

  it('refuses ids of the wrong form and bodies that are not events', () => {
    for (const fields of [
      { id: 'pi_1' },
      { id: 'cs_\u0000' },
      { id: 7 },
      { payment_intent: 'ch_1' },
      { object: 'x' },
    ]) {
      expect(readStripeEvent(event('checkout.session.completed', fields)).kind).toBe('invalid');
    }
    expect(readStripeEvent(event('checkout.session.completed', { payment_intent: { id: 'pi_2' } }))).toMatchObject({
      event: { paymentIntent: 'pi_2' },
    });
    for (const body of [
      null,
      42,
      'evt',
      [],
      {},
      { id: 'evt_1', type: 5 },
      { id: 'evt_1', type: 'checkout.session.completed' },
    ]) {
      expect(readStripeEvent(body).kind).toBe('invalid');
    }
  });
});
