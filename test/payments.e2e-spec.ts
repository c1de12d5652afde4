import { DataSource } from 'typeorm';
import { createKey, signup } from './support/accounts';
import {
  checkoutCompletedEvent,
  deliverStripeEvent,
  signStripePayload,
  startStripeMock,
  type StripeMock,
} from './support/stripe';
import { createTestApp, type TestApp } from './support/test-app';

describe('Stripe top-ups', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const deliver = (payload: string, signature: string) => deliverStripeEvent(t.http, payload, signature);
  const sign = (payload: string) => signStripePayload(payload);

  it('the same signed event twice (and ten times at once) credits once', async () => {
    const user = await signup(t.http, 'payer');
    const payload = checkoutCompletedEvent(user.userId, 1250, `cs_${user.userId.slice(0, 8)}`);
    const first = await deliver(payload, sign(payload)).expect(200);
    expect(first.body).toMatchObject({ received: true, outcome: 'recorded' });
    const again = await deliver(payload, sign(payload)).expect(200);
    expect(again.body).toMatchObject({ outcome: 'duplicate', payment_id: first.body.payment_id });
    const storm = await Promise.all(Array.from({ length: 10 }, () => deliver(payload, sign(payload))));
    expect(storm.map((r) => r.status)).toEqual(Array(10).fill(200));

    const account = await t.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(account.body.points_balance).toBe(12_500); // $12.50 at 1000 points per dollar

    const payments = await t.http
      .get('/api/v1/account/payments')
      .set('Authorization', `Bearer ${user.jwt}`)
      .expect(200);
    expect(payments.body).toEqual([
      {
        id: first.body.payment_id,
        provider: 'stripe',
        currency: 'USD',
        amount: '12.50',
        points_added: 12_500,
        status: 'done',
        external_id: `pi_cs_${user.userId.slice(0, 8)}`,
        paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
        created_at: expect.any(String),
      },
    ]);
    const transactions = await t.http
      .get('/api/v1/account/transactions')
      .set('Authorization', `Bearer ${user.jwt}`)
      .expect(200);
    expect(transactions.body).toEqual([
      expect.objectContaining({ type: 'charge', amount: 12_500, balance_after: 12_500 }),
    ]);
  });

  it('a tampered payload or signature is 400 and records nothing', async () => {
    const user = await signup(t.http, 'tamper');
    const payload = checkoutCompletedEvent(user.userId, 5000, `cs_t_${user.userId.slice(0, 8)}`);
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

  it('events other than a paid checkout are acknowledged and ignored', async () => {
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'customer.created', data: { object: {} } });
    const res = await deliver(payload, sign(payload)).expect(200);
    expect(res.body).toEqual({ received: true, outcome: 'ignored' });
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
    const event = checkoutCompletedEvent(user.userId, 1000, res.body.id, res.body.points);
    const first = await deliverStripeEvent(t.http, event).expect(200);
    expect(first.body).toMatchObject({ outcome: 'recorded' });
    await deliverStripeEvent(t.http, event).expect(200, {
      received: true,
      outcome: 'duplicate',
      payment_id: first.body.payment_id,
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
