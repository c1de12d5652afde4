import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { signup } from './support/accounts';
import { createTestApp, type TestApp } from './support/test-app';

const stripe = new Stripe('sk_test_unused');

function checkoutCompleted(userId: string, cents: number, sessionId: string): string {
  return JSON.stringify({
    id: `evt_${sessionId}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: 1_795_000_000,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        client_reference_id: userId,
        amount_total: cents,
        currency: 'usd',
        payment_status: 'paid',
        payment_intent: `pi_${sessionId}`,
        created: 1_795_000_000,
      },
    },
  });
}

describe('Stripe top-ups', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const deliver = (payload: string, signature: string) =>
    t.http
      .post('/api/v1/payments/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);

  const sign = (payload: string) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret: process.env.STRIPE_WEBHOOK_SECRET! });

  it('the same signed event twice (and ten times at once) credits once', async () => {
    const user = await signup(t.http, 'payer');
    const payload = checkoutCompleted(user.userId, 1250, `cs_${user.userId.slice(0, 8)}`);
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
    const payload = checkoutCompleted(user.userId, 5000, `cs_t_${user.userId.slice(0, 8)}`);
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
