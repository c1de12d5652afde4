import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestUser } from './support/accounts';
import {
  checkoutCompletedEvent,
  checkoutSessionEvent,
  deliverStripeEvent,
  signStripePayload,
  startStripeMock,
  type CheckoutEventOptions,
  type StripeMock,
} from './support/stripe';
import { createTestApp, type TestApp } from './support/test-app';

describe('Stripe top-ups', () => {
  let stripeMock: StripeMock;
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    stripeMock = await startStripeMock();
    t = await createTestApp({}, { ...process.env, ...stripeMock.env, PUBLIC_BASE_URL: 'https://docconv.example.com/' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    await stripeMock?.close();
  });

  const deliver = (payload: string, signature: string) => deliverStripeEvent(t.http, payload, signature);
  const sign = (payload: string) => signStripePayload(payload);
  const bearer = (user: TestUser): [string, string] => ['Authorization', `Bearer ${user.jwt}`];

  /** A user with a checkout of `usd` dollars opened through the API: the session id and the points it quoted. */
  async function buyer(tag: string, usd: number) {
    const user = await signup(t.http, tag);
    const res = await t.http
      .post('/api/v1/payments/checkout')
      .set(...bearer(user))
      .send({ usd })
      .expect(200);
    const session = res.body.id as string;
    const event = (options: CheckoutEventOptions = {}, cents = usd * 100) =>
      checkoutSessionEvent(user.userId, cents, session, options);
    return { user, session, points: res.body.points as number, event };
  }

  const ASYNC_SUCCEEDED: CheckoutEventOptions = { type: 'checkout.session.async_payment_succeeded' };
  const ASYNC_FAILED: CheckoutEventOptions = { type: 'checkout.session.async_payment_failed', paymentStatus: 'unpaid' };
  const COMPLETED_UNPAID: CheckoutEventOptions = { paymentStatus: 'unpaid' };

  const paymentsOf = async (user: TestUser) =>
    (
      await t.http
        .get('/api/v1/account/payments')
        .set(...bearer(user))
        .expect(200)
    ).body as Record<string, unknown>[];
  const transactionsOf = async (user: TestUser) =>
    (
      await t.http
        .get('/api/v1/account/transactions')
        .set(...bearer(user))
        .expect(200)
    ).body as Record<string, unknown>[];

  /** The balance, and that the ledger, the payments and the balance agree on it. */
  async function balanceOf(user: TestUser): Promise<number> {
    const account = await t.http
      .get('/api/v1/account')
      .set(...bearer(user))
      .expect(200);
    const [sums] = await db.query<{ ledger: number; paid: number }[]>(
      `SELECT (SELECT coalesce(sum(amount), 0)::int FROM credit_transactions WHERE user_id = $1) AS ledger,
              (SELECT coalesce(sum(points_added), 0)::int FROM payments WHERE user_id = $1) AS paid`,
      [user.userId],
    );
    expect(sums).toEqual({ ledger: account.body.points_balance, paid: account.body.points_balance });
    return account.body.points_balance as number;
  }

  it('the same signed event twice (and ten times at once) credits once', async () => {
    const { user, session, event } = await buyer('payer', 12);
    const payload = event();
    const first = await deliver(payload, sign(payload)).expect(200);
    expect(first.body).toMatchObject({ received: true, outcome: 'recorded', status: 'done' });
    const again = await deliver(payload, sign(payload)).expect(200);
    expect(again.body).toMatchObject({ outcome: 'duplicate', payment_id: first.body.payment_id });
    const storm = await Promise.all(Array.from({ length: 10 }, () => deliver(payload, sign(payload))));
    expect(storm.map((r) => r.status)).toEqual(Array(10).fill(200));

    expect(await balanceOf(user)).toBe(12_000); // $12 at 1000 points per dollar
    expect(await paymentsOf(user)).toEqual([
      {
        id: first.body.payment_id,
        provider: 'stripe',
        currency: 'USD',
        amount: '12.00',
        points_added: 12_000,
        status: 'done',
        external_id: `pi_${session}`,
        paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
        created_at: expect.any(String),
      },
    ]);
    expect(await transactionsOf(user)).toEqual([
      expect.objectContaining({ type: 'charge', amount: 12_000, balance_after: 12_000 }),
    ]);
  });

  it('a delayed payment: completed unpaid is recorded pending, its success credits once and turns it done', async () => {
    const { user, session, points, event } = await buyer('bankdebit', 25);
    const completed = await deliverStripeEvent(t.http, event(COMPLETED_UNPAID)).expect(200);
    expect(completed.body).toMatchObject({ outcome: 'recorded', status: 'pending' });
    await deliverStripeEvent(t.http, event(COMPLETED_UNPAID)).expect(200, {
      received: true,
      outcome: 'duplicate',
      payment_id: completed.body.payment_id,
      status: 'pending',
    });
    expect(await paymentsOf(user)).toEqual([
      expect.objectContaining({
        id: completed.body.payment_id,
        amount: '25.00',
        points_added: 0,
        status: 'pending',
        external_id: `pi_${session}`,
        paid_at: null,
      }),
    ]);
    expect(await balanceOf(user)).toBe(0);

    const succeeded = await deliverStripeEvent(t.http, event(ASYNC_SUCCEEDED)).expect(200);
    expect(succeeded.body).toEqual({
      received: true,
      outcome: 'recorded',
      payment_id: completed.body.payment_id,
      status: 'done',
    });
    await deliverStripeEvent(t.http, event(ASYNC_SUCCEEDED)).expect(200);
    // A late copy of the completion changes nothing either.
    const late = await deliverStripeEvent(t.http, event(COMPLETED_UNPAID)).expect(200);
    expect(late.body).toMatchObject({ outcome: 'ignored', status: 'done' });

    expect(await balanceOf(user)).toBe(points);
    expect(points).toBe(25_000);
    expect(await paymentsOf(user)).toEqual([
      expect.objectContaining({
        id: completed.body.payment_id,
        points_added: 25_000,
        status: 'done',
        paid_at: expect.stringMatching(/^\d{4}-/),
      }),
    ]);
    expect(await transactionsOf(user)).toEqual([
      expect.objectContaining({ type: 'charge', amount: 25_000, balance_after: 25_000 }),
    ]);
  });

  it('a delayed payment that fails is recorded failed and credits nothing, even if a success is delivered after it', async () => {
    const { user, event } = await buyer('bankfail', 30);
    const pending = await deliverStripeEvent(t.http, event(COMPLETED_UNPAID)).expect(200);
    const failed = await deliverStripeEvent(t.http, event(ASYNC_FAILED)).expect(200);
    expect(failed.body).toEqual({
      received: true,
      outcome: 'recorded',
      payment_id: pending.body.payment_id,
      status: 'failed',
    });
    const after = await deliverStripeEvent(t.http, event(ASYNC_SUCCEEDED)).expect(200);
    expect(after.body).toMatchObject({ outcome: 'ignored', status: 'failed', reason: 'the payment is already failed' });
    expect(await paymentsOf(user)).toEqual([
      expect.objectContaining({ amount: '30.00', points_added: 0, status: 'failed', paid_at: null }),
    ]);
    expect(await balanceOf(user)).toBe(0);
    expect(await transactionsOf(user)).toEqual([]);

    // A failure heard before the completion is recorded too.
    const other = await buyer('bankfail2', 5);
    await deliverStripeEvent(t.http, other.event(ASYNC_FAILED)).expect(200);
    expect(await paymentsOf(other.user)).toEqual([expect.objectContaining({ status: 'failed', points_added: 0 })]);
  });

  it('parallel deliveries of the success, with the paid completion among them, credit once', async () => {
    const { user, points, event } = await buyer('parallel', 40);
    await deliverStripeEvent(t.http, event(COMPLETED_UNPAID)).expect(200);
    const events = [
      ...Array.from({ length: 8 }, (_, i) => event({ ...ASYNC_SUCCEEDED, eventSuffix: `_${i}` })),
      event(),
      event(),
    ];
    const answers = await Promise.all(events.map((payload) => deliverStripeEvent(t.http, payload)));
    expect(answers.map((r) => r.status)).toEqual(Array(events.length).fill(200));
    expect(answers.filter((r) => r.body.outcome === 'recorded')).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.payment_id)).size).toBe(1);
    expect(await balanceOf(user)).toBe(points);
    expect(await transactionsOf(user)).toHaveLength(1);
    expect(await paymentsOf(user)).toEqual([expect.objectContaining({ status: 'done', points_added: 40_000 })]);

    // And a fresh checkout whose first news is ten parallel successes.
    const fresh = await buyer('parallel2', 7);
    const storm = await Promise.all(
      Array.from({ length: 10 }, () => deliverStripeEvent(t.http, fresh.event(ASYNC_SUCCEEDED))),
    );
    expect(storm.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await balanceOf(fresh.user)).toBe(7_000);
    expect(await paymentsOf(fresh.user)).toHaveLength(1);
  });

  it('an expired checkout that was never completed records no payment', async () => {
    const { user, event } = await buyer('expired', 10);
    const res = await deliverStripeEvent(
      t.http,
      event({ type: 'checkout.session.expired', paymentStatus: 'unpaid' }),
    ).expect(200);
    expect(res.body).toMatchObject({ outcome: 'ignored', reason: expect.stringContaining('no payment') });
    expect(await paymentsOf(user)).toEqual([]);
    expect(await balanceOf(user)).toBe(0);
  });

  it('amounts and currencies that are not a well-formed match of the quote are ignored with the reason, logged, and credit nothing', async () => {
    const { user, event } = await buyer('amounts', 10);
    const warned = jest.spyOn(Logger.prototype, 'warn');
    try {
      const cases: [string, string][] = [
        ['negative', event({}, -1000)],
        ['zero', event({}, 0)],
        ['huge', event({}, 1e20)],
        ['beyond a double', event().replace('"amount_total":1000', '"amount_total":1e400')],
        ['past bigint', event().replace('"amount_total":1000', '"amount_total":99999999999999999999999')],
        ['a string', event({ session: { amount_total: '1000' } })],
        ['a fraction', event({}, 1000.5)],
        ['missing', event({ session: { amount_total: undefined } })],
        ['null', event({ session: { amount_total: null } })],
        ['an object', event({ session: { amount_total: { value: 1000 } } })],
        ['another currency', event({ session: { currency: 'eur' } })],
        ['currency in capitals', event({ session: { currency: 'USD' } })],
        ['currency a number', event({ session: { currency: 840 } })],
        ['no currency', event({ session: { currency: undefined } })],
        ['more than quoted', event({}, 100_000)],
        ['less than quoted', event({}, 500)],
        ['async success with less', event(ASYNC_SUCCEEDED, 999)],
      ];
      for (const [name, payload] of cases) {
        const res = await deliverStripeEvent(t.http, payload);
        expect([name, res.status, res.body.outcome]).toEqual([name, 200, 'ignored']);
        expect(res.body.reason).toEqual(expect.any(String));
        expect(warned).toHaveBeenLastCalledWith(
          expect.objectContaining({ reason: res.body.reason }),
          'Stripe event not applied',
        );
      }
      const mismatch = await deliverStripeEvent(t.http, event({}, 100_000));
      expect(mismatch.body.reason).toBe("amount_total 100000 differs from the checkout's quote of 1000");
    } finally {
      warned.mockRestore();
    }
    expect(await paymentsOf(user)).toEqual([]);
    expect(await balanceOf(user)).toBe(0);

    // The same checkout paid at its quote is credited at the quote.
    await deliverStripeEvent(t.http, event()).expect(200);
    expect(await balanceOf(user)).toBe(10_000);
  });

  it('events that do not belong to a checkout opened here, or are malformed, are ignored and never a 500', async () => {
    const { user, session, event } = await buyer('malformed', 10);
    const other = await signup(t.http, 'intruder');
    const completed = JSON.parse(event()) as { data: { object: Record<string, unknown> } };
    const withData = (data: unknown) => JSON.stringify({ ...completed, data });
    const cases: [string, string][] = [
      ['a session never opened', checkoutSessionEvent(user.userId, 1000, 'cs_test_notopenedhere')],
      ['another user', checkoutSessionEvent(other.userId, 1000, session)],
      ['no user', event({ session: { client_reference_id: null } })],
      ['a user that is a number', event({ session: { client_reference_id: 7 } })],
      ['a session id with a NUL', checkoutSessionEvent(user.userId, 1000, 'cs_\u0000x')],
      ['a session id of another kind', checkoutSessionEvent(user.userId, 1000, 'pi_123')],
      ['an unknown payment status', event({ paymentStatus: 'maybe' })],
      ['no payment status', event({ session: { payment_status: undefined } })],
      ['free of charge', event({ paymentStatus: 'no_payment_required' })],
      ['a payment intent that is not one', event({ session: { payment_intent: 'x'.repeat(300) } })],
      ['not a session', event({ session: { object: 'payment_intent' } })],
      ['no data', withData(undefined)],
      ['null data', withData(null)],
      ['data.object a string', withData({ object: 'cs_x' })],
      ['an array', '[]'],
      ['a type that is not a string', JSON.stringify({ ...completed, type: 5 })],
    ];
    for (const [name, payload] of cases) {
      const res = await deliverStripeEvent(t.http, payload);
      expect([name, res.status, res.body.outcome]).toEqual([name, 200, 'ignored']);
      expect(res.body.reason).toEqual(expect.any(String));
    }
    for (const body of ['{"id": "evt_1", ', 'null', '42', '"evt"']) {
      const res = await deliverStripeEvent(t.http, body);
      expect([body, res.status, res.headers['content-type']]).toEqual([
        body,
        400,
        expect.stringContaining('application/problem+json'),
      ]);
    }

    expect(await paymentsOf(user)).toEqual([]);
    expect(await paymentsOf(other)).toEqual([]);
    expect(await balanceOf(user)).toBe(0);
    expect(await balanceOf(other)).toBe(0);
  });

  it('a tampered payload or signature is 400 and records nothing', async () => {
    const { user, event } = await buyer('tamper', 50);
    const payload = event();
    const signature = sign(payload);
    const tampered = payload.replace('5000', '500000');
    const res = await deliver(tampered, signature);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_signature');
    await deliver(
      payload,
      signature.replace(/v1=([0-9a-f])/, (_, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`),
    ).expect(400);
    await deliver(payload, '').expect(400);
    const [{ count }] = await db.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM payments WHERE user_id = $1',
      [user.userId],
    );
    expect(count).toBe(0);
  });

  it('events other than those of a checkout are acknowledged and ignored', async () => {
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'customer.created', data: { object: {} } });
    const res = await deliver(payload, sign(payload)).expect(200);
    expect(res.body).toEqual({
      received: true,
      outcome: 'ignored',
      reason: 'customer.created events change no payment',
    });
  });
});

describe('buying credits through Stripe Checkout (against stripe-mock)', () => {
  let stripeMock: StripeMock;
  let t: TestApp;
  beforeAll(async () => {
    stripeMock = await startStripeMock();
    t = await createTestApp({}, { ...process.env, ...stripeMock.env, PUBLIC_BASE_URL: 'https://docconv.example.com/' });
  });
  afterAll(async () => {
    await t?.close();
    await stripeMock?.close();
  });

  const checkout = (credential: [string, string], body: unknown) =>
    t.http
      .post('/api/v1/payments/checkout')
      .set(...credential)
      .send(body as object);

  it('GET /pricing offers payments: Stripe, USD, the bounds and the points a dollar buys', async () => {
    const pricing = await t.http.get('/api/v1/pricing').expect(200);
    expect(pricing.body.payments).toEqual({
      available: true,
      provider: 'stripe',
      currency: 'USD',
      min_usd: 5,
      max_usd: 500,
      points_per_usd: 1000,
    });
  });

  it('opens a Checkout Session for the user and the amount, and its paid webhook credits the points once', async () => {
    const user = await signup(t.http, 'buyer');
    const before = stripeMock.calls.length;
    const res = await checkout(['Authorization', `Bearer ${user.jwt}`], { usd: 10 }).expect(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cs_/),
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
      provider: 'stripe',
      currency: 'USD',
      usd: 10,
      amount: '10.00',
      points: 10_000,
      success_url: 'https://docconv.example.com/?checkout=success#/account',
      cancel_url: 'https://docconv.example.com/?checkout=cancelled#/account',
    });

    // What went to Stripe: one payment-mode session, one USD line item of $10, the user named twice.
    const sent = stripeMock.calls.slice(before);
    expect(sent.map((c) => [c.method, c.path, c.status])).toEqual([['POST', '/v1/checkout/sessions', 200]]);
    const form = Object.fromEntries(sent[0].form);
    expect(form).toMatchObject({
      mode: 'payment',
      client_reference_id: user.userId,
      'metadata[user_id]': user.userId,
      'metadata[points]': '10000',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1000',
      'line_items[0][price_data][product_data][name]': '10,000 docconv points',
      success_url: res.body.success_url,
      cancel_url: res.body.cancel_url,
    });

    // Stripe reports the session paid: the user gets the points the checkout promised, once.
    const event = checkoutCompletedEvent(user.userId, 1000, res.body.id);
    const first = await deliverStripeEvent(t.http, event).expect(200);
    expect(first.body).toMatchObject({ outcome: 'recorded' });
    await deliverStripeEvent(t.http, event).expect(200, {
      received: true,
      outcome: 'duplicate',
      payment_id: first.body.payment_id,
      status: 'done',
    });
    const account = await t.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(account.body.points_balance).toBe(res.body.points);
    const payments = await t.http.get('/api/v1/account/payments').set('Authorization', `Bearer ${user.jwt}`);
    expect(payments.body).toEqual([
      expect.objectContaining({ id: first.body.payment_id, amount: '10.00', points_added: 10_000, status: 'done' }),
    ]);
  });

  it('takes an API key too, and comes back to the public URL as well', async () => {
    const user = await signup(t.http, 'keybuyer');
    const key = await createKey(t.http, user, { scopes: ['jobs:read'] });
    const res = await checkout(['X-API-Key', key.key], { usd: 500 }).expect(200);
    expect(res.body).toMatchObject({ usd: 500, amount: '500.00', points: 500_000 });
    expect(res.body.success_url).toBe('https://docconv.example.com/?checkout=success#/account');
    expect(Object.fromEntries(stripeMock.calls.at(-1)!.form)).toMatchObject({ client_reference_id: user.userId });
  });

  it('a retry with the same Idempotency-Key answers the same checkout and opens no second one', async () => {
    const user = await signup(t.http, 'retry');
    const before = stripeMock.calls.length;
    const send = (usd: number) =>
      checkout(['Authorization', `Bearer ${user.jwt}`], { usd }).set('Idempotency-Key', `buy-${user.userId}`);
    const first = await send(20).expect(200);
    const again = await send(20).expect(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(stripeMock.calls.length - before).toBe(1);
    const other = await send(30);
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_conflict']);
  });

  it('refuses amounts outside the bounds, fractions and a missing amount with 400 naming usd, and asks Stripe nothing', async () => {
    const user = await signup(t.http, 'bounds');
    const before = stripeMock.calls.length;
    for (const body of [{ usd: 4 }, { usd: 501 }, { usd: 0 }, { usd: -10 }, { usd: 10.5 }, {}, { usd: '10' }]) {
      const res = await checkout(['Authorization', `Bearer ${user.jwt}`], body);
      expect([res.status, res.headers['content-type']]).toEqual([
        400,
        expect.stringContaining('application/problem+json'),
      ]);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'usd' })]);
    }
    const low = await checkout(['Authorization', `Bearer ${user.jwt}`], { usd: 4 });
    expect(low.body.errors).toEqual([{ field: 'usd', message: 'must be a whole number of US dollars from 5 to 500' }]);
    expect(stripeMock.calls.length).toBe(before);
    await checkout(['Authorization', 'Bearer not-a-token'], { usd: 10 }).expect(401);
  });

  it('answers 503 when Stripe cannot be reached, and credits nothing', async () => {
    const down = await createTestApp(
      {},
      {
        ...process.env,
        ...stripeMock.env,
        PUBLIC_BASE_URL: 'https://docconv.example.com',
        STRIPE_API_BASE: 'http://127.0.0.1:9',
      },
    );
    try {
      const user = await signup(down.http, 'stripedown');
      const res = await down.http
        .post('/api/v1/payments/checkout')
        .set('Authorization', `Bearer ${user.jwt}`)
        .send({ usd: 10 });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'service_unavailable',
        detail: expect.stringContaining('nothing was charged'),
      });
      const account = await down.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);
      expect(account.body.points_balance).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('buying credits without Stripe configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { ...process.env, STRIPE_SECRET_KEY: '' });
  });
  afterAll(() => t.close());

  it('GET /pricing says payments are unavailable and the checkout is a 503 saying why', async () => {
    const pricing = await t.http.get('/api/v1/pricing').expect(200);
    expect(pricing.body.payments).toMatchObject({ available: false, min_usd: 5, max_usd: 500 });
    const user = await signup(t.http, 'nostripe');
    const res = await t.http
      .post('/api/v1/payments/checkout')
      .set('Authorization', `Bearer ${user.jwt}`)
      .send({ usd: 10 });
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      code: 'service_unavailable',
      detail: expect.stringContaining('Payments are not configured on this server'),
    });
  });

  it('a secret key without the webhook secret offers nothing either: paid credits could not be recorded', async () => {
    const half = await createTestApp(
      {},
      { ...process.env, STRIPE_SECRET_KEY: 'sk_test_half', STRIPE_WEBHOOK_SECRET: '' },
    );
    try {
      const pricing = await half.http.get('/api/v1/pricing').expect(200);
      expect(pricing.body.payments.available).toBe(false);
      const user = await signup(half.http, 'halfstripe');
      await half.http
        .post('/api/v1/payments/checkout')
        .set('Authorization', `Bearer ${user.jwt}`)
        .send({ usd: 10 })
        .expect(503);
    } finally {
      await half.close();
    }
  });
});
